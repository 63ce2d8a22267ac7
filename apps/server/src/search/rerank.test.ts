import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/seeded-random.js';
import { lightStem, stemsOf } from './light-stem.js';
import { type ParsedQuery, parseSearchQuery } from './query-parser.js';
import {
  ClauseFinder,
  DEFAULT_RERANK_WEIGHTS,
  type RankCandidate,
  rerank,
  seriesTemplate,
  summaryOf,
} from './rerank.js';

function candidate(key: number, title: string, overrides: Partial<RankCandidate> = {}): RankCandidate {
  return {
    key,
    url: `https://docs.example/page-${key}`,
    title,
    headings: '',
    lead: '',
    summary: '',
    lexical: 1,
    held: [true],
    ...overrides,
  };
}

const csv = parseSearchQuery('csv', { prefixLastWord: false, expandSynonyms: false });

describe('rerank', () => {
  it('puts a page whose title names the query above one whose title does not', () => {
    const ranked = rerank([candidate(1, 'File formats'), candidate(2, 'CSV')], csv);
    expect(ranked.map((r) => r.candidate.key)).toEqual([2, 1]);
  });

  it('counts a query word in a short title more than in a long one (title length normalisation)', () => {
    const long = candidate(1, 'Reading and writing CSV files with the standard library module');
    const short = candidate(2, 'CSV files');
    const ranked = rerank([long, short], csv);
    expect(ranked.map((r) => r.candidate.key)).toEqual([2, 1]);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
  });

  it('without length normalisation both titles count alike and the order is kept', () => {
    const weights = { ...DEFAULT_RERANK_WEIGHTS, titleLengthNormalization: 0 };
    const ranked = rerank(
      [
        candidate(1, 'Reading and writing CSV files with the standard library module'),
        candidate(2, 'CSV files'),
      ],
      csv,
      weights,
    );
    expect(ranked.map((r) => r.candidate.key)).toEqual([1, 2]);
    expect(ranked[0]!.score).toBe(ranked[1]!.score);
  });

  it('gives an untitled page a finite score', () => {
    const ranked = rerank([candidate(1, ''), candidate(2, 'CSV')], csv, {
      ...DEFAULT_RERANK_WEIGHTS,
      titleLengthNormalization: 1,
    });
    for (const r of ranked) expect(Number.isFinite(r.score)).toBe(true);
  });

  it("counts the query's words in the summary past a synopsis, which the lead does not reach", () => {
    const synopsis = `SYNOPSIS\n\n${'git blame [-c] [-b] [-l] [--root] [-t] [-f] [-n] [-s] [-e] [-p] [-w] '.repeat(4)}`;
    const opening = `${synopsis}\n\nDESCRIPTION\n\nAnnotates each line in the given file with the revision which last changed it.`;
    // As the stores hand them: the body's start, and the summary written when the page was indexed.
    const described = candidate(2, 'git-blame(1)', { lead: opening, summary: summaryOf(opening) });
    const other = candidate(1, 'git-blame(1)', { lead: synopsis, summary: summaryOf(synopsis) });
    const query = parseSearchQuery('line file', { prefixLastWord: false, expandSynonyms: false });
    expect(rerank([other, described], query).map((r) => r.candidate.key)).toEqual([2, 1]);
    const off = rerank([other, described], query, { ...DEFAULT_RERANK_WEIGHTS, summary: 0 });
    expect(off.map((r) => r.candidate.key)).toEqual([1, 2]);
  });
});

describe('series demotion', () => {
  const query = parseSearchQuery('ledger cargo', { prefixLastWord: false, expandSynonyms: false });
  const notes = (count: number) =>
    Array.from({ length: count }, (_, i) => candidate(i + 1, `Harbour 1.${i} release notes`, { lexical: 3 }));
  const guide = candidate(100, 'Keeping the books', { lexical: 2 });

  it('puts a page above the versions of a series that score up to twice as high', () => {
    const ranked = rerank([...notes(5), guide], query);
    expect(ranked[0]!.candidate.key).toBe(100);
    const off = rerank([...notes(5), guide], query, {
      ...DEFAULT_RERANK_WEIGHTS,
      series: { ...DEFAULT_RERANK_WEIGHTS.series, factor: 1 },
    });
    expect(off.at(-1)!.candidate.key).toBe(100);
  });

  it('leaves fewer pages of a series than minPages as they are', () => {
    expect(rerank([...notes(4), guide], query).at(-1)!.candidate.key).toBe(100);
  });

  it('makes no series of titles that share only a version number', () => {
    const pages = ['Models', 'Views', 'Forms', 'Templates', 'Sessions'].map((name, i) =>
      candidate(i + 1, `${name} — Harbour 3.2.25 documentation`, { lexical: 3 }),
    );
    expect(rerank([...pages, guide], query).at(-1)!.candidate.key).toBe(100);
  });
});

describe('seriesTemplate', () => {
  it('replaces runs of digits and is null for a title without them', () => {
    expect(seriesTemplate('Django 3.1.2 release notes')).toBe('Django #.#.# release notes');
    expect(seriesTemplate('Django 1.10 release notes')).toBe('Django #.# release notes');
    expect(seriesTemplate('git-blame(1)')).toBe('git-blame(#)');
    expect(seriesTemplate('Pagination')).toBeNull();
    expect(seriesTemplate(null)).toBeNull();
  });
});

describe('summaryOf', () => {
  it('skips a title line, a synopsis and a code block, and keeps the first sentence of prose', () => {
    const opening = [
      'git-am(1)',
      'SYNOPSIS',
      'git am [--signoff] [--keep] [--[no-]keep-cr]\n         [--whitespace=<option>] [<mbox> | <Maildir>…]',
      '$ git am --continue',
      'DESCRIPTION',
      'Splits mail messages in a mailbox into commit log message and patches. It applies them.',
    ].join('\n\n');
    expect(summaryOf(opening)).toBe('Splits mail messages in a mailbox into commit log message and patches.');
  });

  it("takes a documentation page's opening sentence after its heading", () => {
    const opening =
      'difflib — Helpers for computing deltas¶\n\nSource code: Lib/difflib.py\n\nThis module provides classes and functions for comparing sequences. It can be used for comparing files.';
    expect(summaryOf(opening)).toBe('This module provides classes and functions for comparing sequences.');
  });

  it('is empty when the opening holds no paragraph of prose', () => {
    expect(summaryOf('SYNOPSIS\n\nls [-l] [-a] <dir>\n\nx = f(1, 2)')).toBe('');
    expect(summaryOf('')).toBe('');
  });
});

/** The clauses of `query` that `text` holds as the light stems of all its words say (the definition ClauseFinder keeps). */
function heldByEveryStem(text: string, query: ParsedQuery): number {
  const stems = stemsOf(text);
  return query.clauses.filter((clause) => {
    if (clause.alternatives.some((word) => stems.has(lightStem(word)))) return true;
    return clause.words.every((word, i) => {
      if (!(clause.prefix && i === clause.words.length - 1)) return stems.has(lightStem(word));
      return [...stems].some((stem) => stem.startsWith(word));
    });
  }).length;
}

describe('ClauseFinder', () => {
  // Inflections the light stem undoes (-ies → y, doubled consonants), case, and the characters whose
  // lower case is not one character for one: `İ` (two), final `Σ` (depends on what follows), `K`.
  const WORDS = [
    'dictionary',
    'Dictionaries',
    'DICTIONARY',
    'flies',
    'fly',
    'Running',
    'run',
    'runs',
    'sorted',
    'sort',
    'key',
    'keys',
    'Keyed',
    'y',
    'by',
    'stopped',
    'stop',
    'copy',
    'copies',
    'İstanbul',
    'istanbul',
    'ΟΔΟΣ',
    'οδος',
    'Σ',
    'Kelvin',
    'kelvin',
    '𝐀lpha',
    'alpha',
    'café',
    'CAFÉ',
    'v2',
    'x86',
    'analysis',
    'analyses',
  ];
  const SEPARATORS = [' ', ' ', ', ', '.', '\n', '-', '/', "'", '…'];
  const QUERIES = [
    'dictionary',
    'flies',
    'run sort',
    '"key value" copy',
    'dict',
    'fl',
    'y',
    'x y',
    'istanbul',
    'ΟΔΟΣ',
    'kelvin',
    'alpha café',
    'v2 x86',
    'sorting keys',
    'analysis',
    'stop',
    'CAF',
    'by',
  ];

  it('counts the clauses a text holds as the light stems of all its words do', () => {
    const random = seededRandom(11);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const texts = Array.from({ length: 400 }, () => {
      let text = '';
      for (let n = Math.floor(random() * 12); n > 0; n -= 1) text += pick(WORDS) + pick(SEPARATORS);
      return text;
    });
    for (const question of QUERIES) {
      for (const options of [{}, { prefixLastWord: false }, { expandSynonyms: false }]) {
        const query = parseSearchQuery(question, options);
        const finder = new ClauseFinder(query.clauses);
        for (const text of texts)
          expect(finder.heldIn(text), `${question} in ${text}`).toBe(heldByEveryStem(text, query));
      }
    }
  });

  it('finds a word whose stem ends in y though the text writes -ies, and a prefix of either', () => {
    const query = parseSearchQuery('dictionary', { prefixLastWord: false });
    expect(new ClauseFinder(query.clauses).heldIn('Mapping types — Dictionaries')).toBe(1);
    expect(new ClauseFinder(parseSearchQuery('dictionar').clauses).heldIn('dictionaries')).toBe(1);
    expect(new ClauseFinder(query.clauses).heldIn('A dictator')).toBe(0);
  });
});
