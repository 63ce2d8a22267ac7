import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SearchAnswer, type SearchParams } from '@webdata/contract';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../test/seeded-random.js';
import { ServiceError } from '../errors.js';
import { SearchDocumentStore } from '../store/sqlite/search/index.js';
import { DEFAULT_RERANK_WEIGHTS } from './rerank.js';
import { releaseNotesAndGuide } from './series-pages.test-support.js';
import { longPage, pageLackingAWord, type SmallFieldCase } from './small-field-candidates.test-support.js';
import { DEFAULT_FIELD_CANDIDATES, SqliteSearchIndex } from './sqlite-search-index.js';
import { ANALYZED_CHARACTERS } from './text-scans.js';
import type { IndexedDocument } from './types.js';

const OWNER = 'owner_a';

function newIndex(): SqliteSearchIndex {
  let tick = 0;
  // A clock that advances one second per document makes indexed_at assertions exact.
  return new SqliteSearchIndex(new Database(':memory:'), {
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)),
  });
}

function doc(partial: Partial<IndexedDocument> & { url: string }): IndexedDocument {
  return {
    owner: OWNER,
    collection: 'docs',
    title: null,
    headings: [],
    body: '',
    runId: 'run_1',
    ...partial,
  };
}

function params(query: string, more: Partial<SearchParams> = {}): SearchParams {
  return { query, collection: 'docs', limit: 10, ...more };
}

function urls(answer: SearchAnswer): string[] {
  return answer.data.map((hit) => hit.url);
}

describe('SqliteSearchIndex ranking', () => {
  it('ranks a title match above a passing mention in the body', () => {
    const index = newIndex();
    index.upsert(
      doc({
        url: 'https://d.example/mention',
        title: 'Release notes',
        body: 'Many fixes. We also touched retries in one place. The rest of this long page is about colours, fonts and layout.',
      }),
    );
    index.upsert(
      doc({
        url: 'https://d.example/retries',
        title: 'Retries',
        body: 'How the client waits between attempts when a request fails.',
      }),
    );
    expect(urls(index.search(OWNER, params('retries')))).toEqual([
      'https://d.example/retries',
      'https://d.example/mention',
    ]);
  });

  it('ranks the page whose summary, past a long synopsis, says what is asked above one with the same words elsewhere', () => {
    const index = newIndex();
    // The same words in both bodies, in another order: only the first sentence of prose differs.
    const synopsis = `SYNOPSIS\n\n${Array.from({ length: 30 }, (_, i) => `tool [--option-${i}]`).join(' ')}`;
    const annotates = 'Annotates each line of a file with the author who last modified it.';
    const other = 'Writes a report of the working tree into the standard output stream.';
    index.upsert(
      doc({
        url: 'https://d.example/b',
        title: 'tool-b(1)',
        body: `${synopsis}\n\n${other}\n\n${annotates}`,
      }),
    );
    index.upsert(
      doc({
        url: 'https://d.example/a',
        title: 'tool-a(1)',
        body: `${synopsis}\n\n${annotates}\n\n${other}`,
      }),
    );
    expect(urls(index.search(OWNER, params('author of each line')))).toEqual([
      'https://d.example/a',
      'https://d.example/b',
    ]);
  });

  it('ranks a page holding the phrase as typed, stop words included, above one holding its words otherwise', () => {
    const pages = (index: SqliteSearchIndex) => {
      // Pages without the words, so that theirs weigh something in bm25.
      for (const topic of ['fonts', 'colours', 'layout', 'printing', 'caching', 'logging'])
        index.upsert(doc({ url: `https://d.example/${topic}`, body: `How ${topic} work here.` }));
      // The shorter page holds both words side by side too, in the other order: bm25 alone prefers it.
      index.upsert(
        doc({ url: 'https://d.example/other', body: 'Results list: each query has one, page by page.' }),
      );
      index.upsert(
        doc({
          url: 'https://d.example/typed',
          body: 'Each query shows its list of results, page by page.',
        }),
      );
      return index;
    };
    const query = params('list of results');
    expect(urls(pages(newIndex()).search(OWNER, query))).toEqual([
      'https://d.example/typed',
      'https://d.example/other',
    ]);
    const without = new SqliteSearchIndex(new Database(':memory:'), { typedPhrases: false });
    expect(urls(pages(without).search(OWNER, query))).toEqual([
      'https://d.example/other',
      'https://d.example/typed',
    ]);
  });

  it('ranks by the summary stored with the page, as its indexing or the migration wrote it', () => {
    const db = new Database(':memory:');
    const index = new SqliteSearchIndex(db);
    // Two pages alike but for their URL: the same bm25, the same lead, the same summary.
    const body = `Writes a report of the working tree into the standard output stream.\n\n${'More text on other things. '.repeat(5)}Each line holds its author.`;
    index.upsert(doc({ url: 'https://d.example/first', title: 'tool(1)', body }));
    index.upsert(doc({ url: 'https://d.example/second', title: 'tool(1)', body }));
    const query = params('author of each line');
    expect(urls(index.search(OWNER, query))).toEqual(['https://d.example/first', 'https://d.example/second']);
    // The second page's stored summary now names what is asked: the ranking reads the column, not
    // the body's first sentence again (which still says nothing of authors or lines).
    db.prepare('UPDATE search_documents SET summary = ? WHERE url = ?').run(
      'Annotates each line of a file with the author who last modified it.',
      'https://d.example/second',
    );
    expect(urls(index.search(OWNER, query))).toEqual(['https://d.example/second', 'https://d.example/first']);
  });

  it("ranks a guide above release notes of many versions that repeat the question's words", () => {
    const c = releaseNotesAndGuide(OWNER, 'docs');
    const firstOf = (options: ConstructorParameters<typeof SqliteSearchIndex>[1] = {}) => {
      const index = new SqliteSearchIndex(new Database(':memory:'), options);
      for (const d of c.documents) index.upsert(d);
      return urls(index.search(c.owner, params(c.query)))[0];
    };
    expect(firstOf()).toBe(c.wanted);
    const off = { ...DEFAULT_RERANK_WEIGHTS, series: { ...DEFAULT_RERANK_WEIGHTS.series, factor: 1 } };
    expect(firstOf({ rerank: off })).not.toBe(c.wanted);
  });

  describe('small-field candidates', () => {
    const rankOf = (c: SmallFieldCase, options: ConstructorParameters<typeof SqliteSearchIndex>[1] = {}) => {
      const index = new SqliteSearchIndex(new Database(':memory:'), options);
      for (const d of c.documents) index.upsert(d);
      const rank = urls(index.search(c.owner, params(c.query, { limit: 50 }))).indexOf(c.wanted) + 1;
      return rank === 0 ? Number.POSITIVE_INFINITY : rank;
    };
    const off = { fieldCandidates: { ...DEFAULT_FIELD_CANDIDATES, depth: 0 } };

    it('reaches a page whose summary says what is asked though its body lacks a word over a hundred pages hold', () => {
      const c = pageLackingAWord(OWNER, 'docs');
      expect(rankOf(c, off)).toBe(Number.POSITIVE_INFINITY);
      expect(rankOf(c)).toBeLessThanOrEqual(3);
    });

    it('leaves out a joined page whose body holds an excluded word', () => {
      const c = pageLackingAWord(OWNER, 'docs');
      expect(rankOf({ ...c, query: `${c.query} -steamship` })).toBeLessThanOrEqual(3);
      // "since" stands in the wanted page's synopsis, outside its small fields.
      expect(rankOf({ ...c, query: `${c.query} -since` })).toBe(Number.POSITIVE_INFINITY);
    });

    it("scores a long page joined by its small fields by their score, not only its body's", () => {
      const c = longPage(OWNER, 'docs');
      expect(rankOf(c, { fieldCandidates: { ...DEFAULT_FIELD_CANDIDATES, scale: 0 } })).toBeGreaterThan(10);
      expect(rankOf(c)).toBe(1);
    });
  });

  it('finds stemmed forms: "crawling" finds "crawled"', () => {
    const index = newIndex();
    index.upsert(doc({ url: 'https://d.example/a', title: 'Pages', body: 'We crawled every page twice.' }));
    index.upsert(doc({ url: 'https://d.example/b', title: 'Other', body: 'Nothing relevant here.' }));
    expect(urls(index.search(OWNER, params('crawling')))).toEqual(['https://d.example/a']);
  });

  it('matches quoted phrases only in that order', () => {
    const index = newIndex();
    index.upsert(doc({ url: 'https://d.example/phrase', body: 'set the rate limit per key' }));
    index.upsert(doc({ url: 'https://d.example/apart', body: 'limit the rate of writes' }));
    expect(urls(index.search(OWNER, params('"rate limit"')))).toEqual(['https://d.example/phrase']);
    expect(urls(index.search(OWNER, params('rate limit'))).sort()).toEqual([
      'https://d.example/apart',
      'https://d.example/phrase',
    ]);
  });

  it('gives the last word and words ending in * prefix matching', () => {
    const index = newIndex();
    index.upsert(doc({ url: 'https://d.example/a', body: 'configuration of the observable pipeline' }));
    expect(urls(index.search(OWNER, params('observ')))).toEqual(['https://d.example/a']);
    index.upsert(doc({ url: 'https://d.example/b', body: 'a config pipeline' }));
    expect(urls(index.search(OWNER, params('config* pipeline'))).sort()).toEqual([
      'https://d.example/a',
      'https://d.example/b',
    ]);
    // Not the last word and no star: whole words only ("configuration" is no match for "config").
    expect(urls(index.search(OWNER, params('+config pipeline')))).toEqual(['https://d.example/b']);
  });

  it('finds pages holding any word, those holding more of the words first', () => {
    const index = newIndex();
    index.upsert(doc({ url: 'https://d.example/one', body: 'sqlite is embedded' }));
    index.upsert(doc({ url: 'https://d.example/both', body: 'sqlite vacuum reclaims space' }));
    index.upsert(doc({ url: 'https://d.example/none', body: 'postgres autovacuum' }));
    expect(urls(index.search(OWNER, params('sqlite vacuum')))).toEqual([
      'https://d.example/both',
      'https://d.example/one',
    ]);
    expect(urls(index.search(OWNER, params('walnut OR sqlite')))).toEqual([
      'https://d.example/one',
      'https://d.example/both',
    ]);
  });

  it('keeps +must, -not and quoted phrases strict', () => {
    const index = newIndex();
    index.upsert(doc({ url: 'https://d.example/one', body: 'sqlite is embedded' }));
    index.upsert(doc({ url: 'https://d.example/both', body: 'sqlite vacuum reclaims space' }));
    index.upsert(doc({ url: 'https://d.example/pg', body: 'postgres vacuum and autovacuum' }));
    expect(urls(index.search(OWNER, params('+sqlite +vacuum')))).toEqual(['https://d.example/both']);
    expect(urls(index.search(OWNER, params('vacuum -sqlite')))).toEqual(['https://d.example/pg']);
    expect(urls(index.search(OWNER, params('"vacuum reclaims" postgres')))).toEqual([
      'https://d.example/both',
    ]);
    expect(urls(index.search(OWNER, params('-sqlite')))).toEqual([]);
  });

  it('ignores stop words so natural questions still find the page', () => {
    const index = newIndex();
    index.upsert(
      doc({ url: 'https://d.example/scope', title: 'Crawl scope', body: 'Keep the crawl on one site.' }),
    );
    expect(urls(index.search(OWNER, params('how do I keep the crawl on one site?')))).toEqual([
      'https://d.example/scope',
    ]);
  });

  it('returns higher scores for better hits', () => {
    const index = newIndex();
    index.upsert(doc({ url: 'https://d.example/a', title: 'Caching', body: 'caching caching' }));
    index.upsert(
      doc({ url: 'https://d.example/b', title: 'Other', body: 'a note on caching among many other words' }),
    );
    const [first, second] = index.search(OWNER, params('caching')).data;
    expect(first!.score).toBeGreaterThan(second!.score);
    expect(second!.score).toBeGreaterThan(0);
  });
});

describe('SqliteSearchIndex filters and pages', () => {
  function filled(): SqliteSearchIndex {
    const index = newIndex();
    index.upsert(doc({ url: 'https://docs.example/guide/a', body: 'webhook delivery' }));
    index.upsert(doc({ url: 'https://docs.example/guide_b', body: 'webhook signatures' }));
    index.upsert(doc({ url: 'https://docs.example/Guide/c', body: 'webhook retries' }));
    index.upsert(doc({ url: 'https://blog.example/guide/d', body: 'webhook story' }));
    index.upsert(doc({ url: 'http://docs.example:8080/guide/e', body: 'webhook on a port' }));
    return index;
  }

  it('filters by URL prefix literally (no wildcards, case-sensitive)', () => {
    const index = filled();
    const answer = index.search(
      OWNER,
      params('webhook', { filters: { url_prefix: 'https://docs.example/guide/' } }),
    );
    expect(urls(answer)).toEqual(['https://docs.example/guide/a']);
    // "_" is not a one-character wildcard.
    const underscore = index.search(
      OWNER,
      params('webhook', { filters: { url_prefix: 'https://docs.example/guide_' } }),
    );
    expect(urls(underscore)).toEqual(['https://docs.example/guide_b']);
  });

  it('filters by site, port included, case-insensitively', () => {
    const index = filled();
    expect(urls(index.search(OWNER, params('webhook', { filters: { site: 'BLOG.example' } })))).toEqual([
      'https://blog.example/guide/d',
    ]);
    expect(urls(index.search(OWNER, params('webhook', { filters: { site: 'docs.example:8080' } })))).toEqual([
      'http://docs.example:8080/guide/e',
    ]);
    expect(index.search(OWNER, params('webhook', { filters: { site: 'docs.example' } })).data).toHaveLength(
      3,
    );
  });

  it('pages with a cursor through every hit exactly once', () => {
    const index = filled();
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = index.search(OWNER, params('webhook', { limit: 2, ...(cursor ? { cursor } : {}) }));
      seen.push(...urls(answer));
      cursor = answer.next_cursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    expect(seen).toEqual(urls(index.search(OWNER, params('webhook', { limit: 10 }))));
  });

  it('keeps paging the OR fallback past the first page', () => {
    const index = newIndex();
    for (let i = 0; i < 5; i += 1) index.upsert(doc({ url: `https://d.example/${i}`, body: `alpha ${i}` }));
    const first = index.search(OWNER, params('alpha zulu', { limit: 3 }));
    expect(first.data).toHaveLength(3);
    const second = index.search(OWNER, params('alpha zulu', { limit: 3, cursor: first.next_cursor! }));
    expect(second.data).toHaveLength(2);
    expect(second.next_cursor).toBeNull();
  });

  it('rejects a cursor used with another query, other filters or garbage', () => {
    const index = filled();
    const { next_cursor } = index.search(OWNER, params('webhook', { limit: 1 }));
    expect(next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const attempts: SearchParams[] = [
      params('webhooks', { cursor: next_cursor! }),
      params('webhook', { cursor: next_cursor!, filters: { site: 'docs.example' } }),
      params('webhook', { cursor: 'not-a-cursor' }),
      params('webhook', { cursor: Buffer.from('{"v":1,"o":-5,"h":"x"}').toString('base64url') }),
    ];
    for (const attempt of attempts) {
      try {
        index.search(OWNER, attempt);
        expect.unreachable('the cursor should be refused');
      } catch (error) {
        expect(error).toBeInstanceOf(ServiceError);
        expect((error as ServiceError).code).toBe('invalid_request');
      }
    }
  });
});

describe('SqliteSearchIndex snippets', () => {
  it('marks matched words and escapes the page text', () => {
    const index = newIndex();
    index.upsert(
      doc({
        url: 'https://d.example/x',
        title: 'Cache <b>headers</b>',
        body: 'Intro text. <script>alert(1)</script> & the cache "stores" responses\u0001 for a while.',
      }),
    );
    const [hit] = index.search(OWNER, params('cache')).data;
    expect(hit!.snippet).toContain('<mark>cache</mark>');
    expect(hit!.snippet).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; the');
    expect(hit!.snippet).toContain('&quot;stores&quot;');
    expect(hit!.snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    expect(hit!.title).toBe('Cache <b>headers</b>');
  });

  it("takes each hit's snippet from its own page", () => {
    const index = newIndex();
    index.upsert(doc({ url: 'https://d.example/1', body: 'the copper kettle in the first article' }));
    index.upsert(doc({ url: 'https://d.example/2', body: 'copper wire in the second article' }));
    const hits = index.search(OWNER, params('copper')).data;
    expect(
      hits.map((hit) => [hit.url, hit.snippet.includes('first'), hit.snippet.includes('second')]),
    ).toEqual(
      expect.arrayContaining([
        ['https://d.example/1', true, false],
        ['https://d.example/2', false, true],
      ]),
    );
    expect(hits).toHaveLength(2);
  });

  it('shows about thirty words around the match of a long body', () => {
    const index = newIndex();
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `filler${i}`).join(' ');
    index.upsert(
      doc({ url: 'https://d.example/long', body: `${filler(200)} the needle word ${filler(200)}` }),
    );
    const [hit] = index.search(OWNER, params('needle')).data;
    expect(hit!.snippet).toContain('<mark>needle</mark>');
    const words = hit!.snippet.split(/\s+/).length;
    expect(words).toBeGreaterThanOrEqual(25);
    expect(words).toBeLessThanOrEqual(35);
    expect(hit!.snippet.startsWith('…')).toBe(true);
  });

  it('finds a word past the first ANALYZED_CHARACTERS characters of a body, and shows the opening then', () => {
    const index = newIndex();
    const long = `The opening words. ${'plain '.repeat(Math.ceil(ANALYZED_CHARACTERS / 6))}`;
    index.upsert(doc({ url: 'https://d.example/far', body: `${long} the needle word` }));
    index.upsert(doc({ url: 'https://d.example/near', body: `a needle close by. ${long}` }));
    const hits = index.search(OWNER, params('needle')).data;
    expect(hits.map((hit) => hit.url).sort()).toEqual(['https://d.example/far', 'https://d.example/near']);
    const snippet = (url: string) => hits.find((hit) => hit.url === url)!.snippet;
    // Not marked past the analysed part (nor by FTS5's snippet, which would tokenize the whole body).
    expect(snippet('https://d.example/far')).toBe(`The opening words. ${'plain '.repeat(27).trim()}…`);
    expect(snippet('https://d.example/near')).toContain('a <mark>needle</mark> close by.');
  });

  it('falls back to the title when only the title matches', () => {
    const index = newIndex();
    index.upsert(
      doc({ url: 'https://d.example/t', title: 'Generics in depth', body: 'Type parameters explained.' }),
    );
    const [hit] = index.search(OWNER, params('generics')).data;
    expect(hit!.snippet).toContain('<mark>Generics</mark>');
  });
});

describe('SqliteSearchIndex documents and runs', () => {
  it('replaces the document when the same URL is indexed again', () => {
    const index = newIndex();
    index.upsert(doc({ url: 'https://d.example/p', body: 'old words', runId: 'run_1' }));
    const before = index.search(OWNER, params('old')).data[0]!;
    index.upsert(doc({ url: 'https://d.example/p', body: 'new words', runId: 'run_2' }));
    expect(index.search(OWNER, params('old')).data).toEqual([]);
    const after = index.search(OWNER, params('new')).data[0]!;
    expect(after.document_id).toBe(before.document_id);
    expect(after.indexed_at > before.indexed_at).toBe(true);
    expect(index.collections(OWNER)).toEqual([
      { name: 'docs', document_count: 1, updated_at: after.indexed_at },
    ]);
  });

  it('removeRun keeps documents another run also indexed', () => {
    const index = newIndex();
    index.upsert(doc({ url: 'https://d.example/shared', body: 'shared page', runId: 'run_1' }));
    index.upsert(doc({ url: 'https://d.example/only1', body: 'only page', runId: 'run_1' }));
    index.upsert(doc({ url: 'https://d.example/shared', body: 'shared page', runId: 'run_2' }));
    index.removeRun('run_1');
    expect(urls(index.search(OWNER, params('page')))).toEqual(['https://d.example/shared']);
    index.removeRun('run_2');
    expect(index.search(OWNER, params('page')).data).toEqual([]);
    expect(index.collections(OWNER)).toEqual([]);
    index.removeRun('run_unknown');
  });

  it('keeps owners and collections apart', () => {
    const index = newIndex();
    index.upsert(doc({ url: 'https://d.example/a', body: 'secret plan' }));
    index.upsert(doc({ url: 'https://d.example/a', body: 'secret plan', owner: 'owner_b' }));
    index.upsert(doc({ url: 'https://d.example/b', body: 'secret plan', collection: 'notes' }));
    expect(index.search(OWNER, params('secret')).data).toHaveLength(1);
    expect(index.search('owner_c', params('secret')).data).toEqual([]);
    expect(index.search(OWNER, params('secret', { collection: 'notes' })).data).toHaveLength(1);
    const mine = index.search(OWNER, params('secret')).data[0]!;
    const theirs = index.search('owner_b', params('secret')).data[0]!;
    expect(mine.document_id).not.toBe(theirs.document_id);
    expect(index.collections(OWNER).map((c) => [c.name, c.document_count])).toEqual([
      ['docs', 1],
      ['notes', 1],
    ]);
    expect(index.collections('owner_c')).toEqual([]);
  });
});

describe('SqliteSearchIndex query safety', () => {
  function sample(): SqliteSearchIndex {
    const index = newIndex();
    index.upsert(
      doc({
        url: 'https://d.example/s',
        title: 'NEAR AND OR NOT',
        headings: ['col: value'],
        body: 'Plain text with "quotes", stars*, carets^ and (parentheses) — café, Straße, 東京.',
      }),
    );
    return index;
  }

  it('answers punctuation-only queries with nothing', () => {
    const index = sample();
    for (const query of ['"', '***', '()', '-', '"" ^ :', '?!', '\u0301']) {
      expect(index.search(OWNER, params(query)).data).toEqual([]);
    }
  });

  it('treats FTS5 operators and column filters typed by a user as words', () => {
    const index = sample();
    // Operators are plain words: "NEAR(" is the word near (in the title), not a NEAR group.
    expect(index.search(OWNER, params('NEAR( text')).data).toHaveLength(1);
    expect(index.search(OWNER, params('plain NOT text')).data).toHaveLength(1);
    expect(index.search(OWNER, params('plain OR zzz')).data).toHaveLength(1);
    expect(index.search(OWNER, params('title:plain')).data).toEqual([]);
    expect(index.search(OWNER, params('col: value')).data).toHaveLength(1);
    expect(index.search(OWNER, params('cafe strasse')).data).toHaveLength(1);
  });

  it('never throws and always returns a valid SearchAnswer, whatever the query', () => {
    const index = sample();
    const syntax = fc.constantFrom(
      '"',
      '*',
      '(',
      ')',
      ':',
      '^',
      '-',
      '+',
      'AND',
      'OR',
      'NOT',
      'NEAR',
      '{',
      '}',
      ',',
      ' ',
      "'",
      '\\',
      '\u0000',
      '\u0301',
    );
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      syntax,
      fc.constantFrom('plain', 'text', 'café'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const query = pieces.join('');
        if (query.trim() === '') return;
        const answer = index.search(OWNER, params(query));
        expect(SearchAnswer.safeParse(answer).success).toBe(true);
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (query) => {
        if (query.trim() === '') return;
        expect(() => index.search(OWNER, params(query))).not.toThrow();
      }),
      { numRuns: 150 },
    );
  });

  it('returns answers that satisfy the strict contract schema', () => {
    const index = sample();
    index.upsert(doc({ url: 'https://d.example/t2', title: null, body: 'plain again' }));
    const answer = index.search(OWNER, params('plain', { limit: 1 }));
    expect(answer.data).toHaveLength(1);
    expect(() => SearchAnswer.parse(answer)).not.toThrow();
    expect(answer.data[0]!.document_id).toMatch(/^doc_[A-Za-z0-9_-]+$/);
  });
});

describe('SqliteSearchIndex embedded chunks', () => {
  const v = (...xs: number[]) => Float32Array.from(xs);

  it("keeps a page's chunks with it: replaced on re-indexing, gone with its last run, filters applied", () => {
    const db = new Database(':memory:');
    const index = new SqliteSearchIndex(db);
    const count = () => (db.prepare('SELECT count(*) AS n FROM search_chunks').get() as { n: number }).n;
    index.upsert(
      doc({ url: 'https://a.example/1', body: 'alpha', chunks: [{ text: 'A\nalpha', vector: v(1, 0) }] }),
    );
    index.upsert(
      doc({
        url: 'https://b.example/2',
        body: 'beta',
        runId: 'run_2',
        chunks: [
          { text: 'B\nbeta one', vector: v(0, 1) },
          { text: 'B\nbeta two', vector: v(0.6, 0.8) },
        ],
      }),
    );
    expect(count()).toBe(3);
    // Near (1, 0): page 1 first, page 2 by its second chunk; neither holds the word "gamma".
    const found = index.search(OWNER, params('gamma'), v(1, 0)).data;
    expect(found.map((hit) => hit.url)).toEqual(['https://a.example/1', 'https://b.example/2']);
    expect(found[1]?.snippet).toBe('beta two');
    expect(
      index.search(OWNER, params('gamma', { filters: { site: 'b.example' } }), v(1, 0)).data,
    ).toHaveLength(1);
    // Without a query vector, or with strict syntax, only words count.
    expect(index.search(OWNER, params('gamma')).data).toEqual([]);
    expect(index.search(OWNER, params('+gamma'), v(1, 0)).data).toEqual([]);

    // Re-indexed without embeddings (endpoint down): the old vectors are stale and go.
    index.upsert(doc({ url: 'https://a.example/1', body: 'alpha again' }));
    expect(count()).toBe(2);
    index.removeRun('run_2');
    expect(count()).toBe(0);
  });
});

describe('SqliteSearchIndex words held by half of the index', () => {
  /**
   * 400 pages: `widget` in 300 (bm25()'s idf floor), `gear` in 150 of them (50 with widget: fewer
   * than the 100 re-ranked hold both), `sprocket` in 5; one page holds widget only, in its title.
   */
  function corpus(options: { leaveOutFlooredPhrases: boolean }): SqliteSearchIndex {
    const index = new SqliteSearchIndex(new Database(':memory:'), {
      now: () => new Date(Date.UTC(2026, 0, 1)),
      ...options,
    });
    for (let i = 0; i < 400; i += 1) {
      const words = [
        i < 300 ? 'widget' : 'filler',
        i >= 250 ? 'gear' : 'plain',
        i % 80 === 0 ? 'sprocket' : '',
      ];
      index.upsert(
        doc({
          url: `https://d.example/${i}`,
          title: `Page ${i}`,
          body: `${words.join(' ')} ${'text '.repeat(i % 7)}`,
        }),
      );
    }
    index.upsert(doc({ url: 'https://d.example/widget', title: 'Widget', body: 'About it.' }));
    return index;
  }

  function answers(index: SqliteSearchIndex, query: string): { url: string; score: number }[] {
    const first = index.search(OWNER, params(query));
    const second =
      first.next_cursor === null
        ? []
        : index.search(OWNER, params(query, { cursor: first.next_cursor })).data;
    return [...first.data, ...second].map((hit) => ({ url: hit.url, score: hit.score }));
  }

  it('leaves them out of the body ranking statements and answers as when every word is ranked', () => {
    const leaving = corpus({ leaveOutFlooredPhrases: true });
    const keeping = corpus({ leaveOutFlooredPhrases: false });
    const spy = vi.spyOn(SearchDocumentStore.prototype, 'findMatchesScoring');
    try {
      // gear held by 150 of 401: ranked alone; sprocket by 5: fewer than 100, so widget is ranked too.
      for (const query of ['gear widget', 'widget gear', 'sprocket widget']) {
        const expected = answers(keeping, query);
        spy.mockClear();
        const got = answers(leaving, query);
        const asked = spy.mock.calls.map(([match]) => match.match);
        expect(got.map((hit) => hit.url)).toEqual(expected.map((hit) => hit.url));
        for (const [i, hit] of got.entries()) expect(hit.score).toBeCloseTo(expected[i]!.score, 4);
        // The word itself (a phrase of its own), not the neighbour phrase holding it.
        const ranksWidget = (match: string) => /"widget"\*?(?=[ )]|$)/.test(match);
        expect(asked.some(ranksWidget)).toBe(query === 'sprocket widget');
      }
      // The page holding widget only, in its title, is still joined from the small fields.
      expect(answers(leaving, 'gear widget').map((hit) => hit.url)).toContain('https://d.example/widget');
      // Pages holding only widget are still found past the 5 holding sprocket.
      expect(answers(leaving, 'sprocket widget')).toHaveLength(20);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('SqliteSearchIndex word indexes', () => {
  const WORDS = [
    'sort',
    'sorted',
    'Sorting',
    'list',
    'lists',
    'key',
    'keys',
    'function',
    'Functional',
    'copy',
  ];
  const FILLER = ['the', 'of', 'a', 'text', 'more', 'here', '—', 'x9', 'Straße', 'ΟΔΟΣ'];

  /**
   * 60 pages of random words (two without a word index: `İ`, and a character past the BMP). No page
   * kept across searches (page-cache.ts): what each search reads is counted.
   */
  function corpus(db: Database.Database): SqliteSearchIndex {
    const index = new SqliteSearchIndex(db, { now: () => new Date(Date.UTC(2026, 0, 1)), pageCacheBytes: 0 });
    const random = seededRandom(18);
    const pick = (from: readonly string[]) => from[Math.floor(random() * from.length)]!;
    for (let i = 0; i < 60; i += 1) {
      const words = Array.from({ length: 20 + Math.floor(random() * 400) }, () =>
        random() < 0.3 ? pick(WORDS) : pick(FILLER),
      );
      const special = i === 7 ? ' İstanbul sort' : i === 8 ? ' 😀 sort key' : '';
      index.upsert(
        doc({
          url: `https://d.example/${i}`,
          title: `Page ${i} ${pick(WORDS)}`,
          body: `${words.join(i % 3 === 0 ? '\n' : ' ')}${special}`,
        }),
      );
    }
    return index;
  }

  function answers(index: SqliteSearchIndex, query: string): unknown[] {
    const first = index.search(OWNER, params(query));
    const second =
      first.next_cursor === null
        ? []
        : index.search(OWNER, params(query, { cursor: first.next_cursor })).data;
    return [...first.data, ...second].map(({ url, title, snippet, score }) => ({
      url,
      title,
      snippet,
      score,
    }));
  }

  const QUERIES = [
    'sort list',
    'sorting a list by key',
    'key functions',
    '"sort list"',
    'copy sort key list',
    'straße sort',
    'οδος key',
    'sort e\u0301',
  ];

  it('answers as when every body is read and scanned (pages, scores, snippets), reading only the returned bodies', () => {
    const withWords = new Database(':memory:');
    const indexed = corpus(withWords);
    const before = new Database(':memory:');
    const scanned = corpus(before);
    // A database from before the word indexes: none for its rows.
    before.exec('DELETE FROM search_words');
    expect(withWords.prepare('SELECT count(*) FROM search_words').pluck().get()).toBe(58);
    // Read as text or, for a returned page's snippet, as bytes (utf8-text.ts): a read all the same.
    const read = vi.spyOn(SearchDocumentStore.prototype, 'bodies');
    const readBytes = vi.spyOn(SearchDocumentStore.prototype, 'bodyBytes');
    try {
      for (const query of QUERIES) {
        const expected = answers(scanned, query);
        expect(expected.length).toBeGreaterThan(10);
        read.mockClear();
        readBytes.mockClear();
        expect(answers(indexed, query)).toEqual(expected);
        const bodiesRead = [...read.mock.calls, ...readBytes.mock.calls].reduce(
          (n, [seqs]) => n + seqs.length,
          0,
        );
        // Two searches (pages 1 and 2): the passage step's 20 pages are read for a needle the index
        // cannot answer (a mark) only; else the returned pages are, and the two without an index.
        if (query.includes('\u0301')) expect(bodiesRead).toBeGreaterThanOrEqual(20);
        else expect(bodiesRead).toBeLessThanOrEqual(expected.length + 4);
      }
    } finally {
      read.mockRestore();
      readBytes.mockRestore();
    }
  });

  it("keeps a page's word index with its body: written again with a new body, dropped when another writer changes it, gone with the page", () => {
    const db = new Database(':memory:');
    const index = new SqliteSearchIndex(db);
    const count = () => db.prepare('SELECT count(*) FROM search_words').pluck().get();
    index.upsert(doc({ url: 'https://d.example/a', body: 'walnut and brass', runId: 'run_1' }));
    index.upsert(doc({ url: 'https://d.example/b', body: 'copper only', runId: 'run_2' }));
    expect(count()).toBe(2);
    index.upsert(doc({ url: 'https://d.example/a', body: 'brass then walnut', runId: 'run_1' }));
    expect(count()).toBe(2);
    expect(index.search(OWNER, params('walnut')).data[0]?.snippet).toBe('brass then <mark>walnut</mark>');
    // Another writer (an older server, a hand edit) changes a body: its index goes, the body is scanned.
    db.prepare("UPDATE search_documents SET body = 'walnut, brass and copper' WHERE url = ?").run(
      'https://d.example/a',
    );
    expect(count()).toBe(1);
    expect(index.search(OWNER, params('brass copper')).data.map((hit) => hit.snippet)).toEqual([
      'walnut, <mark>brass</mark> and <mark>copper</mark>',
      '<mark>copper</mark> only',
    ]);
    index.removeRun('run_2');
    expect(count()).toBe(0);
  });
});

describe('SqliteSearchIndex pages kept across searches', () => {
  function answers(index: SqliteSearchIndex, query: string): unknown[] {
    const first = index.search(OWNER, params(query, { limit: 5 }));
    const second =
      first.next_cursor === null
        ? []
        : index.search(OWNER, params(query, { limit: 5, cursor: first.next_cursor })).data;
    return [...first.data, ...second];
  }

  it('answers as an index keeping none, through writes by it, by another statement and by another connection', () => {
    const dir = mkdtempSync(join(tmpdir(), 'page-cache-'));
    const file = join(dir, 'search.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    const other = new Database(file);
    try {
      let tick = 0;
      const now = () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++));
      const kept = new SqliteSearchIndex(db, { now });
      const plain = new SqliteSearchIndex(db, { now, pageCacheBytes: 0 });
      const random = seededRandom(4);
      const words = ['walnut', 'brass', 'copper', 'oak', 'steel', 'the', 'a', 'joint', 'screw', 'glue'];
      const text = (n: number) =>
        Array.from({ length: n }, () => words[Math.floor(random() * words.length)]!);
      for (let i = 0; i < 30; i += 1)
        kept.upsert(
          doc({
            url: `https://d.example/${i}`,
            title: `Page ${i} ${text(2).join(' ')}`,
            headings: [text(3).join(' ')],
            body: text(30 + Math.floor(random() * 300)).join(i % 2 === 0 ? ' ' : '\n'),
          }),
        );
      const QUERIES = ['walnut brass', 'oak joint glue', 'copper screw', 'steel'];
      const same = () => {
        for (const query of QUERIES)
          for (let round = 0; round < 2; round += 1)
            expect(answers(kept, query), query).toEqual(answers(plain, query));
      };
      same();
      const titleOf = (url: string) =>
        (answers(kept, 'walnut brass') as { url: string; title: string }[]).find((hit) => hit.url === url)
          ?.title;
      expect(kept.keptPageBytes()).toBeGreaterThan(0);
      expect(plain.keptPageBytes()).toBe(0);
      const top = answers(kept, 'walnut brass')[0] as { url: string; title: string };
      // Re-indexed through the index: new title, headings and body.
      kept.upsert(
        doc({ url: top.url, title: 'Walnut brass renamed', body: 'only brass and walnut here now' }),
      );
      same();
      expect(titleOf(top.url)).toBe('Walnut brass renamed');
      // Another statement on the same connection (a hand edit): its rows changed all the same.
      db.prepare(
        "UPDATE search_documents SET title = 'Walnut edited', body = 'brass walnut, edited' WHERE url = ?",
      ).run(top.url);
      same();
      expect(titleOf(top.url)).toBe('Walnut edited');
      // Another connection's commit (the batch write thread's, another process's).
      other
        .prepare(
          "UPDATE search_documents SET title = 'Walnut elsewhere', body = 'brass walnut from elsewhere' WHERE url = ?",
        )
        .run(top.url);
      same();
      expect(titleOf(top.url)).toBe('Walnut elsewhere');
      kept.removeRun('run_1');
      expect(answers(kept, 'walnut brass')).toEqual([]);
    } finally {
      other.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
