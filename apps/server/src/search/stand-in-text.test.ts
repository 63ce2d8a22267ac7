import { describe, expect, it } from 'vitest';
import { passageNeedles } from './passage.js';
import { parseSearchQuery, positiveClauses } from './query-parser.js';
import { snippetNeedles, snippetsOfPages, snippetsReadOnlyWhiteSpace } from './snippet.js';
import { standInText } from './stand-in-text.js';
import { ANALYZED_CHARACTERS, TextScans } from './text-scans.js';
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

describe('standInText', () => {
  it("stands in for each code unit past ASCII by its white space, and slices the text's own code units", () => {
    const next = random(7);
    for (let n = 0; n < 200; n += 1) {
      const text = randomText(next, Math.floor(next() * 200));
      const standIn = standInText(Buffer.from(text, 'utf8'))!;
      expect(standIn.text.length).toBe(text.length);
      for (let i = 0; i < text.length; i += 1) {
        const code = text.charCodeAt(i);
        const stood = standIn.text.charCodeAt(i);
        if (code < 0x80) expect(stood).toBe(code);
        else expect(stood).toBe(/\s/.test(text[i]!) ? 0xa0 : 0x80);
      }
      for (let k = 0; k < 20; k += 1) {
        const a = Math.floor(next() * (text.length + 1));
        const b = Math.floor(next() * (text.length + 1));
        expect(standIn.slice(a, b)).toBe(text.slice(a, b));
      }
      expect(standIn.slice(0)).toBe(text);
    }
  });

  it('is null for a text holding a character past the Basic Multilingual Plane', () => {
    expect(standInText(Buffer.from('a 😀 b', 'utf8'))).toBeNull();
    expect(standInText(Buffer.from('plain', 'utf8'))?.text).toBe('plain');
  });
});

describe('snippets of a stand-in body', () => {
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
        const standIns = new Map(
          seqs.map((seq) => [seq, standInText(Buffer.from(bodies.get(seq)!, 'utf8'))!]),
        );
        const stoodIn = (seq: number) => {
          const standIn = standIns.get(seq)!;
          return {
            body: standIn.text,
            slice: (a: number, b: number) => standIn.slice(a, b),
            title: 'Title',
            headings: 'Heading',
          };
        };
        expect(snippetsOfPages(parsed, seqs, stoodIn, indexed())).toEqual(
          snippetsOfPages(parsed, seqs, own, indexed()),
        );
      }
    }
  });

  it('are refused for a phrase, which reads the words of the text', () => {
    const parsed = parseSearchQuery('"sorted list"');
    expect(snippetsReadOnlyWhiteSpace(parsed)).toBe(false);
    const body = 'a sorted list';
    const scans = new TextScans(snippetNeedles(parsed));
    scans.index(1, new WordIndex(buildWordIndex(body)!));
    const standIn = standInText(Buffer.from(body, 'utf8'))!;
    expect(() =>
      snippetsOfPages(
        parsed,
        [1],
        () => ({ body: standIn.text, slice: (a, b) => standIn.slice(a, b), title: null, headings: '' }),
        scans,
      ),
    ).toThrow(/stand-in/);
  });
});
