import type { IndexedWord, WordIndex } from './word-index.js';

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const WORD_AT = /[\p{L}\p{N}]+/uy;
const LETTERS_OR_DIGITS = /^[\p{L}\p{N}]+$/u;
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Whether the word starts of `needle` in a text can be read from the text's {@link WordIndex}: a
 * needle of letters and digits only, none of them past the Basic Multilingual Plane. Another (a
 * mark, a surrogate, empty) is searched for in the lower-cased text.
 */
export function isIndexedNeedle(needle: string): boolean {
  return LETTERS_OR_DIGITS.test(needle) && !SURROGATE.test(needle);
}

/**
 * How many characters of a page's body the search reads to find the query's words in it (its
 * best passage and its snippet), as Elasticsearch analyses at most 1,000,000 characters of a field
 * to highlight it (`index.highlight.max_analyzed_offset`): a page's words past that are still
 * indexed, and match, but are neither looked for in a passage nor marked. Lower-casing and searching
 * a 9 MB body held the main thread ~0.2 s a search; the largest pages of the manuals the ranking was
 * chosen on are well under it. The stores read one character more, so that {@link isCut} knows.
 */
export const ANALYZED_CHARACTERS = 1_000_000;

/** The part of `text` the search analyses: its first {@link ANALYZED_CHARACTERS} characters. */
export function analyzedPart(text: string): string {
  return text.length > ANALYZED_CHARACTERS ? text.slice(0, ANALYZED_CHARACTERS) : text;
}

/** Whether `text` goes on past what the search analyses of it ({@link ANALYZED_CHARACTERS}). */
export function isCut(text: string): boolean {
  return text.length > ANALYZED_CHARACTERS;
}

/**
 * Where `needle` occurs in `lower` at a word start (no letter or digit before it), in text order:
 * every occurrence found with `indexOf`, overlapping ones too.
 */
export function wordStartsIn(lower: string, needle: string): number[] {
  const starts: number[] = [];
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) {
    if (at > 0 && LETTER_OR_DIGIT.test(lower[at - 1] ?? '')) continue;
    starts.push(at);
  }
  return starts;
}

/**
 * One text lower-cased (`toLowerCase`) once, and the word starts of each needle asked of it found
 * once ({@link wordStartsIn}). `text` is the part of the text given (`source`) that the search
 * analyses ({@link analyzedPart}). A needle with a shorter needle of the query as its prefix (its
 * root) is not searched for again: its starts are the root's where the lower-cased text goes on
 * with it, the same positions in the same order.
 *
 * With the text's word index (`words`, see word-index.ts), a needle of letters and digits is
 * looked up in it instead: the text is neither lower-cased nor scanned for it (the same starts).
 * Such a scan may be made before its text is read (`text` ''): the passage step reads nothing else
 * of it; the snippets give it its text ({@link TextScans.of}).
 */
export class ScannedText {
  /** The text as given. */
  readonly source: string;
  /** What is scanned of it: its first {@link ANALYZED_CHARACTERS} characters. */
  readonly text: string;
  /** The text's word index, or null (then every needle is searched for in the lower-cased text). */
  readonly words: WordIndex | null;
  private lowerText: string | undefined;
  private readonly found = new Map<string, readonly number[]>();
  private readonly roots: ReadonlyMap<string, string>;

  constructor(text: string, roots: ReadonlyMap<string, string> = new Map(), words: WordIndex | null = null) {
    this.source = text;
    this.text = analyzedPart(text);
    this.roots = roots;
    this.words = words;
  }

  /**
   * Whether the lower-cased text is as long as the text (its offsets are the text's): a text with
   * a word index is (see {@link buildWordIndex}), and is then not lower-cased to tell.
   */
  get charForChar(): boolean {
    return this.words !== null || this.lower.length === this.text.length;
  }

  /**
   * The words (`[\p{L}\p{N}]+` of the lower-cased text) at the word starts of `needle`, each with
   * its starts: from the word index, a group per distinct word; else one per start, in text order
   * (the word '' where none starts there).
   */
  wordsAt(needle: string): readonly IndexedWord[] | readonly { word: string; starts: readonly number[] }[] {
    if (this.words !== null && isIndexedNeedle(needle)) return this.words.wordsStartingWith(needle);
    const lower = this.lower;
    return this.wordStarts(needle).map((at) => {
      WORD_AT.lastIndex = at;
      return { word: WORD_AT.exec(lower)?.[0] ?? '', starts: [at] };
    });
  }

  /** `text.toLowerCase()` (which may be longer than the text: `İ` becomes two characters). */
  get lower(): string {
    this.lowerText ??= this.text.toLowerCase();
    return this.lowerText;
  }

  /** {@link wordStartsIn} of the lower-cased text. */
  wordStarts(needle: string): readonly number[] {
    const known = this.found.get(needle);
    if (known !== undefined) return known;
    if (this.words !== null && isIndexedNeedle(needle)) {
      const indexed = this.words.startsOf(needle);
      this.found.set(needle, indexed);
      return indexed;
    }
    const root = this.roots.get(needle) ?? needle;
    const lower = this.lower;
    const starts =
      root === needle
        ? wordStartsIn(lower, needle)
        : this.wordStarts(root).filter((at) => lower.startsWith(needle, at));
    this.found.set(needle, starts);
    return starts;
  }
}

/**
 * The texts of one query's pages, each lower-cased and searched once however many steps read it:
 * the passage step and the snippets both look for the query's words in the same bodies (a page's
 * body is lower-cased and searched twice otherwise, for the snippet's words and the passage's).
 * `needles`: every needle the steps will ask (the roots are chosen among them); a text is known by
 * its page's row.
 *
 * @example
 * ```ts
 * const scans = new TextScans(['sort', 'sorted']);
 * scans.of(7, 'Sorted, sort.').wordStarts('sorted'); // [0], from the scan for 'sort'
 * ```
 */
export class TextScans {
  /**
   * Whether every needle of the query can be read from a page's word index ({@link isIndexedNeedle}):
   * only then are the word indexes given ({@link TextScans.index}) used, and a page with one need
   * not be read for the passage step.
   */
  readonly indexed: boolean;
  private readonly roots = new Map<string, string>();
  private readonly texts = new Map<number, ScannedText>();
  private readonly indexes = new Map<number, WordIndex>();

  constructor(needles: Iterable<string>) {
    const distinct = [...new Set(needles)];
    this.indexed = distinct.every(isIndexedNeedle);
    // Shortest first: a needle's root is the first (shortest) needle it starts with.
    const sorted = distinct.filter((n) => n !== '').sort((a, b) => a.length - b.length);
    for (const needle of sorted) {
      const root = sorted.find((other) => needle.startsWith(other)) ?? needle;
      if (root !== needle) this.roots.set(needle, root);
    }
  }

  /**
   * Page `key`'s word index (see word-index.ts), used when the needles are all {@link indexed}; null:
   * it has none (any given before is forgotten: its text, read with it, is scanned).
   */
  index(key: number, words: WordIndex | null): void {
    if (words === null) this.indexes.delete(key);
    else if (this.indexed) this.indexes.set(key, words);
  }

  /** Whether page `key`'s word index was given (and is used: see {@link indexed}). */
  hasIndex(key: number): boolean {
    return this.indexes.has(key);
  }

  /**
   * The scans of page `key`'s text `text` (a new one when the page's text is another). Without
   * `text`: those of its word index when it has one (nothing else of it read), else of ''.
   */
  of(key: number, text?: string): ScannedText {
    const known = this.texts.get(key);
    if (known !== undefined && (text === undefined || known.source === text)) return known;
    const words = this.indexes.get(key) ?? null;
    const scanned = new ScannedText(text ?? '', this.roots, words);
    this.texts.set(key, scanned);
    return scanned;
  }
}
