import { describe, expect, it } from 'vitest';
import { matchOf, parseSearchQuery, phrasesOf, rankingOf } from './query-parser.js';

function expressions(text: string, options = {}): string[] {
  return parseSearchQuery(text, options).clauses.map((c) => c.expression);
}

describe('parseSearchQuery', () => {
  it('quotes every word and prefixes the last one', () => {
    expect(expressions('configure retries')).toEqual(['"configure"', '"retries"*']);
    expect(expressions('configure retries', { prefixLastWord: false })).toEqual(['"configure"', '"retries"']);
  });

  it('reads quoted phrases, a * after them, and unbalanced quotes as text', () => {
    expect(expressions('"rate limit" headers')).toEqual(['"rate limit"', '"headers"*']);
    expect(expressions('"rate lim"* headers')).toEqual(['"rate lim"*', '"headers"*']);
    expect(expressions('say "unclosed phrase')).toEqual(['"say"', '"unclosed"', '"phrase"*']);
  });

  it('turns words with inner punctuation into phrases', () => {
    expect(expressions('node.js e-mail')).toEqual(['"node js"', '"e mail"']);
  });

  it('drops stop words unless nothing else is left or they are quoted', () => {
    expect(expressions('how do I stop a crawl', { expandSynonyms: false })).toEqual(['"stop"', '"crawl"*']);
    expect(expressions("don't retry")).toEqual(['"retry"*']);
    expect(expressions('the who')).toEqual(['"the"', '"who"*']);
    expect(expressions('"the who" band')).toEqual(['"the who"', '"band"*']);
  });

  it('keeps short words and numbers from implicit prefix matching', () => {
    expect(expressions('http 2')).toEqual(['"http"', '"2"']);
    expect(expressions('go to')).toEqual(['"go"']);
    expect(expressions('cache ab*')).toEqual(['"cache"', '"ab"*']);
    expect(expressions('cache x*')).toEqual(['"cache"', '"x"']);
  });

  it('yields nothing for punctuation and neutralises operators', () => {
    expect(expressions('"" ** () :^ -')).toEqual([]);
    expect(expressions('title:x NEAR(a b) AND')).toEqual(['"title x"', '"near a"', '"b"']);
  });

  it('dedupes and caps the clauses', () => {
    expect(expressions('cache cache cache')).toEqual(['"cache"*']);
    const many = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    expect(expressions(many)).toHaveLength(24);
  });

  it('keeps words that change the meaning: not, no, without', () => {
    expect(expressions('merge without a commit', { expandSynonyms: false })).toEqual([
      '"merge"',
      '"without"',
      '"commit"*',
    ]);
    expect(expressions('why is it not equal')).toEqual(['"not"', '"equal"*']);
  });

  it('reads +must, -not and quoted phrases as constraints, other words as any-of', () => {
    const modes = (text: string) => parseSearchQuery(text).clauses.map((c) => `${c.mode} ${c.expression}`);
    expect(modes('+sqlite wal -"write ahead" -journal')).toEqual([
      'must "sqlite"',
      'should "wal"',
      'not "write ahead"',
      'not "journal"',
    ]);
    expect(modes('"rate limit" headers')).toEqual(['must "rate limit"', 'should "headers"*']);
    // A hyphen inside a word is no operator.
    expect(modes('e-mail -')).toEqual(['should "e mail"']);
  });

  it('joins clauses into one FTS5 expression: any word, every must, no not, neighbours as phrases', () => {
    expect(matchOf(parseSearchQuery('sqlite write ahead log', { expandSynonyms: false }))).toBe(
      '("sqlite" OR "write" OR "ahead" OR "log"* OR "sqlite write" OR "write ahead" OR "ahead log")',
    );
    expect(matchOf(parseSearchQuery('sqlite "write ahead" log'))).toBe(
      '"write ahead" AND ("sqlite" OR "write ahead" OR "log"* OR "sqlite log")',
    );
    expect(matchOf(parseSearchQuery('sqlite wal'), true)).toBe(
      '"sqlite" AND "wal"* AND ("sqlite" OR "wal"* OR "sqlite wal")',
    );
    expect(matchOf(parseSearchQuery('+sqlite +wal'))).toBe('"sqlite" AND "wal"* AND ("sqlite" OR "wal"*)');
    expect(matchOf(parseSearchQuery('cache -redis'))).toBe('("cache") NOT ("redis")');
    expect(matchOf(parseSearchQuery('-redis'))).toBeNull();
    expect(matchOf(parseSearchQuery('!!'))).toBeNull();
  });

  it('scores neighbouring words also as the phrase typed, with the stop words between them', () => {
    const options = { expandSynonyms: false, prefixLastWord: false };
    expect(matchOf(parseSearchQuery('list of results', options))).toBe(
      '("list" OR "results" OR "list results" OR "list of results")',
    );
    expect(matchOf(parseSearchQuery('count how many of the rows', options))).toBe(
      '("count" OR "many" OR "rows" OR "count many" OR "count how many" OR "many rows" OR "many of the rows")',
    );
    // Nothing dropped between them: the pair alone; a quoted phrase between them: no typed phrase.
    expect(matchOf(parseSearchQuery('sqlite write', options))).toBe(
      '("sqlite" OR "write" OR "sqlite write")',
    );
    expect(matchOf(parseSearchQuery('list of "all" results', options))).toBe(
      '"all" AND ("list" OR "all" OR "results" OR "list results")',
    );
    expect(matchOf(parseSearchQuery('list of results', { ...options, typedPhrases: false }))).toBe(
      '("list" OR "results" OR "list results")',
    );
  });

  it('lets a plain word match its synonyms, but not a phrase, a +must or a -not word', () => {
    expect(expressions('deleting a folder')).toEqual([
      '("deleting" OR "remove" OR "erase")',
      '("folder"* OR "directory" OR "dir")',
    ]);
    expect(parseSearchQuery('find x').clauses[0]?.alternatives).toEqual(['search', 'grep', 'lookup']);
    expect(expressions('+delete -remove "find files"')).toEqual(['"delete"', '"remove"', '"find files"']);
    expect(matchOf(parseSearchQuery('delete cache'))).toBe(
      '(("delete" OR "remove" OR "erase") OR "cache"* OR "delete cache")',
    );
  });

  it('leaves phrases out of the scoring part only, while a positive clause keeps one there', () => {
    const leftOut = new Set(['"read"', '"file"*', '"remove"']);
    const scored = (phrase: string) => !leftOut.has(phrase);
    const options = { expandSynonyms: false };
    expect(matchOf(parseSearchQuery('read csv file', options), false, scored)).toBe(
      '("csv" OR "read csv" OR "csv file")',
    );
    // Every clause stays required with allWords: the documents are the same.
    expect(matchOf(parseSearchQuery('read csv file', options), true, scored)).toBe(
      '"read" AND "csv" AND "file"* AND ("csv" OR "read csv" OR "csv file")',
    );
    // A +must clause stays required; a -not clause stays excluded.
    expect(matchOf(parseSearchQuery('+read csv -json', options), false, scored)).toBe(
      '("read" AND "csv") NOT ("json")',
    );
    // A synonym is a phrase of its own: the others of its clause stay.
    expect(phrasesOf(parseSearchQuery('delete x').clauses[0]!)).toEqual(['"delete"', '"remove"', '"erase"']);
    expect(matchOf(parseSearchQuery('delete wal'), false, scored)).toBe(
      '(("delete" OR "erase") OR "wal"* OR "delete wal")',
    );
    // No positive clause keeps a phrase: the expression is the whole one.
    expect(matchOf(parseSearchQuery('read file', options), false, () => false)).toBe(
      matchOf(parseSearchQuery('read file', options)),
    );
    expect(rankingOf(parseSearchQuery('read csv file', options), scored)?.expression).toBe(
      '("csv" OR "read csv" OR "csv file")',
    );
    expect(rankingOf(parseSearchQuery('"read"'), () => false)).toEqual({ expression: '"read"*', factor: 2 });
  });
});
