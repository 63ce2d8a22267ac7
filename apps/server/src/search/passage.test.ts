import { describe, expect, it } from 'vitest';
import {
  bestPassageShare,
  closestPairsProximity,
  DEFAULT_PASSAGE_WEIGHTS,
  rescoreByPassage,
} from './passage.js';
import { parseSearchQuery } from './query-parser.js';
import { ANALYZED_CHARACTERS } from './text-scans.js';

const query = (text: string) => parseSearchQuery(text, { prefixLastWord: false, expandSynonyms: false });
const filler = (words: number) => Array.from({ length: words }, (_, i) => `filler${i}`).join(' ');

describe('bestPassageShare', () => {
  it('is 1 when one passage holds every word, inflected forms included', () => {
    const text = `${filler(200)} Sorting a list of dictionaries by key. ${filler(200)}`;
    expect(bestPassageShare(text, query('sort dictionary keys'), 300)).toBe(1);
  });

  it('counts only the words within one window when they are far apart', () => {
    const text = `sort ${filler(300)} dictionary ${filler(300)} key`;
    expect(bestPassageShare(text, query('sort dictionary key'), 300)).toBeCloseTo(1 / 3);
    expect(bestPassageShare(text, query('sort dictionary key'), 100_000)).toBe(1);
  });

  it('matches whole words only: "thread" does not hold "read"', () => {
    expect(bestPassageShare('thread spreadsheet', query('read spreadsheet'), 300)).toBe(0.5);
  });

  it('lets a synonym hold its clause', () => {
    const synonyms = parseSearchQuery('delete branch', { prefixLastWord: false });
    expect(bestPassageShare('To remove a branch, run the command.', synonyms, 300)).toBe(1);
  });

  it('looks for the words in the first ANALYZED_CHARACTERS characters of a body only', () => {
    const long = 'plain '.repeat(Math.ceil(ANALYZED_CHARACTERS / 6));
    // Both words together only past the analysed part: it holds one of them, "sort".
    expect(bestPassageShare(`sort ${long} Sort by key.`, query('sort key'), 300)).toBe(0.5);
    expect(bestPassageShare(`Sort by key. ${long}`, query('sort key'), 300)).toBe(1);
    expect(closestPairsProximity(`sort ${long} Sort by key.`, query('sort key'), 400)).toBe(0);
  });

  it('is 0 for a page without the words and 1 for a one-word query the page holds', () => {
    expect(bestPassageShare('nothing here', query('sort dictionary'), 300)).toBe(0);
    expect(bestPassageShare('sort', query('sort'), 300)).toBe(1);
  });
});

describe('closestPairsProximity', () => {
  it('is exp(−gap / scale) for two words, the closest occurrences counted', () => {
    const text = `sort ${filler(100)} key ${filler(100)} Sort by key.`;
    const gap = 'Sort by '.length;
    expect(closestPairsProximity(text, query('sort key'), 400)).toBeCloseTo(Math.exp(-gap / 400));
  });

  it('averages over every pair of words, a missing word counting 0 for its pairs', () => {
    const text = 'sort key';
    // Pairs (sort, key), (sort, dictionary), (key, dictionary): only the first is held.
    expect(closestPairsProximity(text, query('sort key dictionary'), 400)).toBeCloseTo(
      Math.exp(-5 / 400) / 3,
    );
  });

  it('is 0 for fewer than two words and falls as the words stand further apart', () => {
    expect(closestPairsProximity('sort key', query('sort'), 400)).toBe(0);
    const near = closestPairsProximity(`sort ${filler(5)} key`, query('sort key'), 400);
    const far = closestPairsProximity(`sort ${filler(50)} key`, query('sort key'), 400);
    expect(near).toBeGreaterThan(far);
    expect(far).toBeGreaterThan(0);
  });
});

describe('rescoreByPassage', () => {
  it('puts the page holding the words together above one holding them apart, the rest after', () => {
    const q = query('csv reader');
    const ranked = [
      { seq: 1, score: 10 },
      { seq: 2, score: 9 },
      { seq: 3, score: 8 },
    ];
    const bodies = new Map([
      [1, `csv ${filler(400)} reader`],
      [2, 'the csv reader object'],
    ]);
    const out = rescoreByPassage(ranked, bodies, q, {
      weight: 1,
      characters: 300,
      depth: 2,
      proximity: 0,
      proximityScale: 400,
    });
    expect(out.map((r) => r.seq)).toEqual([2, 1, 3]);
    for (let i = 1; i < out.length; i += 1) expect(out[i]!.score).toBeLessThanOrEqual(out[i - 1]!.score);
  });

  it('of two pages whose passages hold the same share, puts the one where the words stand closer first', () => {
    // Each body holds two of the three words within one 600-character passage; only the gap differs.
    const q = query('csv reader dialect');
    const ranked = [
      { seq: 1, score: 10 },
      { seq: 2, score: 10 },
    ];
    const bodies = new Map([
      [1, `csv ${filler(40)} reader ${filler(400)} dialect`],
      [2, `csv reader ${filler(400)} dialect`],
    ]);
    const weights = { weight: 1, characters: 600, depth: 2, proximity: 1, proximityScale: 400 };
    expect(rescoreByPassage(ranked, bodies, q, weights).map((r) => r.seq)).toEqual([2, 1]);
    expect(rescoreByPassage(ranked, bodies, q, { ...weights, proximity: 0 }).map((r) => r.seq)).toEqual([
      1, 2,
    ]);
  });

  it('by default lets words standing together outweigh a lexical lead of 1.7 times over words 500 characters apart', () => {
    // Both bodies hold both words within one passage (the same share); only the gap differs:
    // proximity exp(−500 / 400) ≈ 0.29 against about 0.98. At the proximity weight of two manuals
    // (1) the lexical lead kept the first page on top; at the weight chosen on three (2.5) it does not.
    const q = query('csv reader');
    const ranked = [
      { seq: 1, score: 17 },
      { seq: 2, score: 10 },
    ];
    const gap = 'x'.repeat(498);
    const bodies = new Map([
      [1, `csv ${gap} reader`],
      [2, 'a csv reader object'],
    ]);
    expect(closestPairsProximity(bodies.get(1) ?? '', q, 400)).toBeCloseTo(Math.exp(-500 / 400), 2);
    expect(rescoreByPassage(ranked, bodies, q).map((r) => r.seq)).toEqual([2, 1]);
    expect(rescoreByPassage(ranked, bodies, q, DEFAULT_PASSAGE_WEIGHTS).map((r) => r.seq)).toEqual([2, 1]);
    expect(
      rescoreByPassage(ranked, bodies, q, { ...DEFAULT_PASSAGE_WEIGHTS, proximity: 1 }).map((r) => r.seq),
    ).toEqual([1, 2]);
  });

  it('changes nothing with weight 0', () => {
    const ranked = [
      { seq: 1, score: 2 },
      { seq: 2, score: 1 },
    ];
    expect(
      rescoreByPassage(ranked, new Map([[2, 'csv reader']]), query('csv reader'), {
        weight: 0,
        characters: 300,
        depth: 2,
        proximity: 0,
        proximityScale: 400,
      }),
    ).toEqual(ranked);
  });
});
