import { describe, expect, it } from 'vitest';
import { parseSearchQuery } from './query-parser.js';
import { DEFAULT_RERANK_WEIGHTS, type RankCandidate, rerank } from './rerank.js';

function candidate(key: number, title: string, overrides: Partial<RankCandidate> = {}): RankCandidate {
  return {
    key,
    url: `https://docs.example/page-${key}`,
    title,
    headings: '',
    lead: '',
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
});
