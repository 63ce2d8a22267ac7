import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/seeded-random.js';
import { ANALYZED_CHARACTERS, isIndexedNeedle, ScannedText, TextScans, wordStartsIn } from './text-scans.js';
import { buildWordIndex, WordIndex } from './word-index.js';

/** Texts of words from a small alphabet: needles occur at word starts, inside words, after digits and marks. */
function randomText(random: () => number, words: number, pieces: readonly string[]): string {
  return Array.from({ length: words }, () => pieces[Math.floor(random() * pieces.length)]).join(
    random() < 0.5 ? ' ' : '',
  );
}

const PIECES = [
  'sort',
  'Sorted',
  'SORTING',
  'resort',
  'funct',
  'function',
  'Functional',
  'ß',
  'Straße',
  'é',
  'e\u0301',
  '—',
  ' ',
  '\n',
  'x9',
  '9x',
  '_',
  'Σ',
  'ΟΔΟΣ',
  '中文',
];
const NEEDLES = [
  'sort',
  'sorted',
  'sorting',
  'funct',
  'function',
  'functional',
  'stra',
  'straße',
  'x9',
  '9',
  'e',
  'ς',
  'σ',
  'οδο',
  '中',
];

describe('buildWordIndex', () => {
  it('gives every needle of letters and digits the word starts a scan of the lower-cased text gives, and the word there', () => {
    const random = seededRandom(18);
    for (let n = 0; n < 300; n += 1) {
      const text = randomText(random, 1 + Math.floor(random() * 80), PIECES);
      const lower = text.toLowerCase();
      const bytes = buildWordIndex(text);
      expect(bytes).not.toBeNull();
      const words = new WordIndex(bytes!);
      for (const needle of NEEDLES) {
        expect(isIndexedNeedle(needle)).toBe(true);
        const scanned = wordStartsIn(lower, needle);
        expect(words.startsOf(needle)).toEqual(scanned);
        const atStarts = new Map<number, string>();
        for (const { word, starts } of words.wordsStartingWith(needle))
          for (const at of starts) atStarts.set(at, word);
        for (const at of scanned) expect(atStarts.get(at)).toBe(/[\p{L}\p{N}]+/uy.exec(lower.slice(at))?.[0]);
      }
    }
  });

  it('is null for a text whose lower case is longer or that holds a character past the Basic Multilingual Plane', () => {
    expect(buildWordIndex('İstanbul')).toBeNull();
    expect(buildWordIndex('a 𝐀bc')).toBeNull();
    expect(buildWordIndex('smile 😀')).toBeNull();
    expect(buildWordIndex('')).not.toBeNull();
  });

  it('indexes the analysed part of the body only', () => {
    const body = `${'a '.repeat(ANALYZED_CHARACTERS / 2)}past`;
    const words = new WordIndex(buildWordIndex(body)!);
    expect(words.startsOf('past')).toEqual([]);
    expect(words.startsOf('a')).toHaveLength(ANALYZED_CHARACTERS / 2);
  });

  it('reads an index from bytes at any offset', () => {
    const bytes = buildWordIndex('Sort the sorted list')!;
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(new WordIndex(shifted.subarray(1)).startsOf('sort')).toEqual([0, 9]);
  });
});

describe('ScannedText with a word index', () => {
  it('finds the same starts and words as the scan of its text, without lower-casing it', () => {
    const random = seededRandom(19);
    for (let n = 0; n < 100; n += 1) {
      const text = randomText(random, 1 + Math.floor(random() * 60), PIECES);
      const plain = new ScannedText(text);
      const scans = new TextScans(NEEDLES);
      expect(scans.indexed).toBe(true);
      scans.index(n, new WordIndex(buildWordIndex(text)!));
      const indexed = scans.of(n);
      expect(indexed.charForChar).toBe(true);
      for (const needle of NEEDLES) {
        expect(indexed.wordStarts(needle)).toEqual(plain.wordStarts(needle));
        const flat = (groups: readonly { word: string; starts: ArrayLike<number> }[]) =>
          groups
            .flatMap(({ word, starts }) => Array.from(starts, (at) => [at, word] as const))
            .sort((a, b) => a[0] - b[0]);
        expect(flat(indexed.wordsAt(needle))).toEqual(flat(plain.wordsAt(needle)));
      }
      // Given its text (the snippets), the page keeps its index.
      const withText = scans.of(n, text);
      expect(withText.text).toBe(text);
      expect(withText.words).toBe(indexed.words);
    }
  });

  it('is not used when a needle of the query cannot be read from it', () => {
    const scans = new TextScans(['sort', 'e\u0301']);
    expect(scans.indexed).toBe(false);
    scans.index(1, new WordIndex(buildWordIndex('sort')!));
    expect(scans.of(1).words).toBeNull();
    expect(new TextScans(['sort', '']).indexed).toBe(false);
  });
});
