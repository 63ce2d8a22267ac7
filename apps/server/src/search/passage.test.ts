import { describe, expect, it } from 'vitest';
import { bestPassageShare, rescoreByPassage } from './passage.js';
import { parseSearchQuery } from './query-parser.js';

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

  it('is 0 for a page without the words and 1 for a one-word query the page holds', () => {
    expect(bestPassageShare('nothing here', query('sort dictionary'), 300)).toBe(0);
    expect(bestPassageShare('sort', query('sort'), 300)).toBe(1);
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
    const out = rescoreByPassage(ranked, bodies, q, { weight: 1, characters: 300, depth: 2 });
    expect(out.map((r) => r.seq)).toEqual([2, 1, 3]);
    for (let i = 1; i < out.length; i += 1) expect(out[i]!.score).toBeLessThanOrEqual(out[i - 1]!.score);
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
      }),
    ).toEqual(ranked);
  });
});
