import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/seeded-random.js';
import { ScannedText, TextScans, wordStartsIn } from './text-scans.js';

/** Texts of words from a small alphabet, so needles occur often, at word starts and inside words. */
function randomText(random: () => number, words: number): string {
  const pieces = [
    'sort',
    'sorted',
    'Sorting',
    'resort',
    'funct',
    'function',
    'Functional',
    'İ',
    'ß',
    '—',
    ' ',
    '\n',
    'x9',
  ];
  return Array.from({ length: words }, () => pieces[Math.floor(random() * pieces.length)]).join(
    random() < 0.5 ? ' ' : '',
  );
}

describe('wordStartsIn', () => {
  it('finds every occurrence at a word start, overlapping ones too', () => {
    expect(wordStartsIn('sort resort sorts', 'sort')).toEqual([0, 12]);
    expect(wordStartsIn('aaa a', 'aa')).toEqual([0]);
    expect(wordStartsIn('x-aa_aa', 'aa')).toEqual([2, 5]);
  });
});

describe('TextScans', () => {
  it("gives a needle's starts from a shorter needle's scan, equal to a scan of its own", () => {
    const needles = ['sort', 'sorted', 'sorting', 'funct', 'function', 'functional', 'i̇', 'ß'];
    const random = seededRandom(11);
    for (let n = 0; n < 200; n += 1) {
      const text = randomText(random, 1 + Math.floor(random() * 60));
      const scanned = new TextScans(needles).of(n, text);
      expect(scanned.lower).toBe(text.toLowerCase());
      // Asked in both orders: longer needles first (the root scanned for them) and shortest first.
      for (const needle of n % 2 === 0 ? [...needles].reverse() : needles)
        expect(scanned.wordStarts(needle)).toEqual(wordStartsIn(text.toLowerCase(), needle));
      expect(scanned.wordStarts('unasked')).toEqual(wordStartsIn(text.toLowerCase(), 'unasked'));
    }
  });

  it("keeps one scan per page while the page's text is the same", () => {
    const scans = new TextScans(['sort']);
    const first = scans.of(1, 'sort it');
    expect(scans.of(1, 'sort it')).toBe(first);
    expect(scans.of(2, 'sort it')).not.toBe(first);
    const other = scans.of(1, 'resort, sort');
    expect(other).not.toBe(first);
    expect(other.wordStarts('sort')).toEqual([8]);
  });

  it('scans a text of its own without needles too', () => {
    expect(new ScannedText('Sort SORTED').wordStarts('sorted')).toEqual([5]);
  });
});
