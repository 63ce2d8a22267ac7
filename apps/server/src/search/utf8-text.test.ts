import { describe, expect, it } from 'vitest';
import { passageNeedles } from './passage.js';
import { parseSearchQuery, positiveClauses } from './query-parser.js';
import { snippetNeedles, snippetsOfPages, snippetsReadOnlyWhiteSpace } from './snippet.js';
import { ANALYZED_CHARACTERS, TextScans } from './text-scans.js';
import { isSpaceCode, StringUnits, utf8Text } from './utf8-text.js';
import { buildWordIndex, WordIndex } from './word-index.js';

/** A small deterministic random generator (mulberry32). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Words and separators of ASCII, Latin-1, other BMP letters, and white space past ASCII.
const WORDS = [
  'sort',
  'sorted',
  'Sorting',
  'list',
  'lists',
  'key',
  'café',
  'naïve',
  'Straße',
  'функция',
  'キー',
  'x1',
  '¶',
  '—',
  '“quoted”',
];
const SEPARATORS = [
  ' ',
  ' ',
  ' ',
  '\n',
  '\n\n',
  '\u00a0',
  '\u2003',
  '\u3000',
  ', ',
  '. ',
  '\t',
  ' … ',
  '\u2028',
  '-',
];

function randomText(next: () => number, words: number): string {
  let text = '';
  for (let i = 0; i < words; i += 1) {
    const pick = next();
    // Now and then a word longer than a snippet shows.
    const word =
      pick < 0.02 ? 'w'.repeat(30 + Math.floor(next() * 40)) : WORDS[Math.floor(next() * WORDS.length)]!;
    text += word + SEPARATORS[Math.floor(next() * SEPARATORS.length)]!;
  }
  return text;
}

describe('isSpaceCode', () => {
  it('is \\s on every UTF-16 code unit, and false past the end (-1)', () => {
    const differing: string[] = [];
    for (let code = 0; code <= 0xffff; code += 1)
      if (isSpaceCode(code) !== /\s/.test(String.fromCharCode(code))) differing.push(code.toString(16));
    expect(differing).toEqual([]);
    expect(isSpaceCode(-1)).toBe(false);
  });
});

/** How many words start in `text`'s code units `[from, to)`, at most `most`, as snippet.ts counted them. */
function wordsStartingIn(text: string, from: number, to: number, most: number): number {
  let inWord = from === 0 || !/\s/.test(text[from - 1]!);
  let words = 0;
  for (let at = from; at < to && words < most; at += 1) {
    const space = /\s/.test(text[at]!);
    if (!space && !inWord) words += 1;
    inWord = !space;
  }
  return words;
}

describe('utf8Text', () => {
  it("reads the text's code units and slices from its UTF-8 bytes, in any order", () => {
    const next = random(7);
    for (let n = 0; n < 200; n += 1) {
      // Now and then a text longer than the positions remembered on the way (1,024 code units).
      const text = randomText(next, Math.floor(next() * (n % 10 === 0 ? 3000 : 200)));
      const bytes = utf8Text(Buffer.from(text, 'utf8'))!;
      const positions: number[] = [];
      for (let k = 0; k < 300; k += 1) {
        const pick = next();
        const last = positions.at(-1) ?? 0;
        // Steps forward and back, as a snippet reads, and jumps anywhere (past the end too).
        positions.push(
          pick < 0.4 ? last + 1 : pick < 0.6 ? last - 1 : Math.floor(next() * (text.length + 3)) - 1,
        );
      }
      for (const at of positions) {
        const code = at >= 0 && at < text.length ? text.charCodeAt(at) : -1;
        expect(bytes.codeAt(at)).toBe(code);
      }
      for (let k = 0; k < 20; k += 1) {
        const a = Math.floor(next() * (text.length + 1));
        const b = a + Math.floor(next() * (text.length + 1 - a));
        expect(bytes.slice(a, b)).toBe(text.slice(a, b));
      }
      expect(bytes.slice(0, text.length)).toBe(text);
      expect(bytes.empty).toBe(text === '');
      // Word counts between positions, in text order as a snippet asks for them, and anywhere.
      const units = new StringUnits(text);
      for (let k = 0; k < 30; k += 1) {
        const from = k < 15 ? Math.floor((k / 15) * text.length) : Math.floor(next() * (text.length + 1));
        const to = from + Math.floor(next() * (text.length + 1 - from));
        const most = 1 + Math.floor(next() * 40);
        const expected = wordsStartingIn(text, from, to, most);
        expect(bytes.wordsStarting(from, to, most)).toBe(expected);
        expect(units.wordsStarting(from, to, most)).toBe(expected);
        // From the word starts found once (a text read again): the count without a bound.
        expect(bytes.wordsBetween(from, to)).toBe(wordsStartingIn(text, from, to, Number.POSITIVE_INFINITY));
      }
      // Every position is still read right once the word starts were found (all positions remembered).
      for (const at of positions)
        expect(bytes.codeAt(at)).toBe(at >= 0 && at < text.length ? text.charCodeAt(at) : -1);
    }
  });

  it('reads the first ANALYZED_CHARACTERS code units of what it analyses, and knows a text goes on', () => {
    const long = `${'é'.repeat(ANALYZED_CHARACTERS - 1)}ab`;
    const bytes = utf8Text(Buffer.from(long, 'utf8'))!;
    expect(bytes.isCut).toBe(true);
    expect(bytes.codeAt(ANALYZED_CHARACTERS)).toBe(0x62);
    const analyzed = bytes.analyzed();
    expect(analyzed.codeAt(ANALYZED_CHARACTERS - 1)).toBe(0x61);
    expect(analyzed.codeAt(ANALYZED_CHARACTERS)).toBe(-1);
    expect(analyzed.codeAt(5)).toBe(0xe9);
    expect(utf8Text(Buffer.from(long.slice(1), 'utf8'))!.isCut).toBe(false);
  });

  it('is null for a text holding a character past the Basic Multilingual Plane', () => {
    expect(utf8Text(Buffer.from('a 😀 b', 'utf8'))).toBeNull();
    expect(utf8Text(Buffer.from('plain', 'utf8'))?.slice(0, 5)).toBe('plain');
  });
});

describe('snippets of a body read as bytes', () => {
  it('are those of the body itself, for pages with a word index and queries of single words', () => {
    const next = random(11);
    const queries = [
      'sort',
      'sorting key',
      'lists café',
      'naïve функция',
      'key*',
      'straße x1 list',
      'quoted',
    ];
    for (let n = 0; n < 60; n += 1) {
      const bodies = new Map<number, string>();
      for (let seq = 1; seq <= 4; seq += 1) bodies.set(seq, randomText(next, 20 + Math.floor(next() * 400)));
      // One body past what the search analyses: its opening words when nothing is marked.
      if (n === 0) bodies.set(5, `${'filler '.repeat(ANALYZED_CHARACTERS / 7)}sorted`);
      const seqs = [...bodies.keys()];
      for (const query of queries) {
        const parsed = parseSearchQuery(query);
        expect(snippetsReadOnlyWhiteSpace(parsed)).toBe(true);
        const needles = [...passageNeedles({ clauses: positiveClauses(parsed) }), ...snippetNeedles(parsed)];
        const indexed = () => {
          const scans = new TextScans(needles);
          for (const [seq, body] of bodies) scans.index(seq, new WordIndex(buildWordIndex(body)!));
          return scans;
        };
        const own = (seq: number) => ({ body: bodies.get(seq)!, title: 'Title', headings: 'Heading' });
        const inBytes = (seq: number) => ({
          body: utf8Text(Buffer.from(bodies.get(seq)!, 'utf8'))!,
          title: 'Title',
          headings: 'Heading',
        });
        // A body read again (kept across searches): its word counts from its word starts.
        const again = (seq: number) => {
          const page = inBytes(seq);
          page.body.readAgain();
          return page;
        };
        const expected = snippetsOfPages(parsed, seqs, own, indexed());
        expect(snippetsOfPages(parsed, seqs, inBytes, indexed())).toEqual(expected);
        expect(snippetsOfPages(parsed, seqs, again, indexed())).toEqual(expected);
      }
    }
  });

  it('are refused for a phrase, which reads the words of the text', () => {
    const parsed = parseSearchQuery('"sorted list"');
    expect(snippetsReadOnlyWhiteSpace(parsed)).toBe(false);
    const body = 'a sorted list';
    const scans = new TextScans(snippetNeedles(parsed));
    scans.index(1, new WordIndex(buildWordIndex(body)!));
    const bytes = utf8Text(Buffer.from(body, 'utf8'))!;
    expect(() =>
      snippetsOfPages(parsed, [1], () => ({ body: bytes, title: null, headings: '' }), scans),
    ).toThrow(/read as bytes/);
  });
});
