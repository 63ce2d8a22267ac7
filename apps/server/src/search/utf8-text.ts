import { ANALYZED_CHARACTERS } from './text-scans.js';

/** White space (`\s`) among ASCII code units: tab, line feed, vertical tab, form feed, carriage return, space. */
const ASCII_SPACE = (() => {
  const table = new Uint8Array(128);
  for (const code of [9, 10, 11, 12, 13, 32]) table[code] = 1;
  return table;
})();

/**
 * Whether the UTF-16 code unit `code` is white space as `\s` has it: ASCII's (tab to carriage
 * return, space), the no-break and Unicode spaces, the line and paragraph separators and the
 * byte-order mark. A comparison, not `\s` on a one-character string: a snippet's word count tests
 * every character between the query's words. `utf8-text.test.ts` compares it with `\s` on every
 * code unit. False for -1 (past a text's end).
 */
export function isSpaceCode(code: number): boolean {
  return code < 0x80 ? code >= 0 && ASCII_SPACE[code] === 1 : isWhiteSpacePastAscii(code);
}

/** {@link isSpaceCode} of a code unit past ASCII. */
export function isWhiteSpacePastAscii(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Units between two remembered positions (see {@link Utf8Text}): a power of two. */
const ANCHOR_SHIFT = 10;
const ANCHOR_UNITS = 1 << ANCHOR_SHIFT;

/**
 * The text a snippet's window is found in, read one UTF-16 code unit at a time (snippet.ts): a
 * string ({@link StringUnits}) or a page's body as its UTF-8 bytes ({@link Utf8Text}).
 */
export interface SnippetUnits {
  /** The code unit at `unit`, or -1 at or past the end (or before the start). */
  codeAt(unit: number): number;
  /** The code units `[start, end)` (both within the text) as a string. */
  slice(start: number, end: number): string;
  /**
   * How many words (runs of non-space) start in the code units `[from, to)`, counting no further
   * than `most`: a word is counted where a non-space follows white space (the one at `from` too,
   * unless `from` is the text's start).
   */
  wordsStarting(from: number, to: number, most: number): number;
}

/** {@link SnippetUnits} of a string. */
export class StringUnits implements SnippetUnits {
  constructor(readonly text: string) {}

  codeAt(unit: number): number {
    return unit >= 0 && unit < this.text.length ? this.text.charCodeAt(unit) : -1;
  }

  slice(start: number, end: number): string {
    return this.text.slice(start, end);
  }

  wordsStarting(from: number, to: number, most: number): number {
    const text = this.text;
    const end = Math.min(to, text.length);
    let inWord = from <= 0 || !isSpaceCode(text.charCodeAt(from - 1));
    let words = 0;
    for (let at = Math.max(0, from); at < end && words < most; at += 1) {
      const space = isSpaceCode(text.charCodeAt(at));
      if (!space && !inWord) words += 1;
      inWord = !space;
    }
    return words;
  }
}

/**
 * A page's text as its UTF-8 bytes, read by UTF-16 code unit without being made into a string: a
 * long body made into one cost most of its snippet (V8 decodes UTF-8 holding any character past
 * ASCII one character at a time into a two-byte string, and one over 64 K characters goes to its
 * large-object space: 13–16 ns a character on the real-page bench's returned bodies). A snippet
 * reads of most of the text only where its white space is, near the query's words, and cuts the
 * shown text from the bytes. Positions are found by walking the bytes from the last one read (a
 * window's characters are read one after another) or from a position remembered every
 * {@link ANCHOR_UNITS} code units, so no read walks further than that back from what was read
 * before it. Null ({@link utf8Text}) for a text holding a character past the Basic Multilingual
 * Plane (two code units).
 *
 * The first {@link ANALYZED_CHARACTERS} code units are what the search analyses of a text
 * ({@link analyzed}); the text itself may go on by one (a store reads one more, so that a snippet
 * knows it is cut: {@link isCut}).
 *
 * @example
 * ```ts
 * const text = utf8Text(Buffer.from('caf\u00e9 ok', 'utf8'))!;
 * text.codeAt(3); // 0xe9
 * text.slice(0, 4); // 'café'
 * ```
 */
export function utf8Text(bytes: Buffer): Utf8Text | null {
  // A character past the BMP starts with one of these bytes (and no other byte of UTF-8 is one).
  for (let lead = 0xf0; lead <= 0xf4; lead += 1) if (bytes.indexOf(lead) >= 0) return null;
  return new Utf8Text(bytes, Number.POSITIVE_INFINITY);
}

/** What is found in a text's bytes once (shared by the text and its {@link Utf8Text.analyzed} part). */
interface Found {
  starts: Uint32Array | null;
  /** Read again (see {@link Utf8Text.readAgain}). */
  again: boolean;
}

/** See {@link utf8Text}. */
export class Utf8Text implements SnippetUnits {
  /** The code unit at the cursor, and where it starts in the bytes. */
  private unit = 0;
  private byte = 0;
  /**
   * The byte where code unit `k × ANCHOR_UNITS` starts, for every such unit walked over from the
   * start (the bytes up to the last one are all walked: no walk starts past it).
   */
  private readonly anchors: number[];
  /** Where the bytes' words start ({@link wordStarts}), once found; shared with {@link analyzed}. */
  private readonly found: Found;

  constructor(
    private readonly bytes: Buffer,
    /** How many code units are read of it (past them the text ends). */
    private readonly limit: number,
    anchors: number[] = [0],
    found: Found = { starts: null, again: false },
  ) {
    this.anchors = anchors;
    this.found = found;
  }

  /** The first {@link ANALYZED_CHARACTERS} code units: what the search analyses (see text-scans.ts). */
  analyzed(): Utf8Text {
    return new Utf8Text(this.bytes, Math.min(this.limit, ANALYZED_CHARACTERS), this.anchors, this.found);
  }

  /**
   * The text is read again (kept across searches: search/page-cache.ts): its snippets' word counts
   * are then worth finding all at once ({@link countsByStarts}).
   */
  readAgain(): void {
    this.found.again = true;
  }

  /**
   * Whether word counts are best read from {@link wordStarts}: found already, or the text read
   * again. A text read once counts only where its snippet needs it ({@link wordsStarting}): one
   * pass over all of it costs more than that.
   */
  get countsByStarts(): boolean {
    return this.found.starts !== null || this.found.again;
  }

  /**
   * Every code unit of the bytes (not only the first `limit`) where a word starts: a non-space
   * after white space (never unit 0), ascending. Found in one pass over the bytes the first time
   * (every position remembered on the way, {@link ANCHOR_UNITS} apart), then kept: the words
   * starting in `[from, to)` are then two bisections ({@link wordsBetween}), however far apart.
   */
  wordStarts(): Uint32Array {
    if (this.found.starts !== null) return this.found.starts;
    const bytes = this.bytes;
    const length = bytes.length;
    const anchors = this.anchors;
    let starts = new Uint32Array(Math.max(64, length >> 3));
    let n = 0;
    let u = 0;
    let b = 0;
    // Unit 0 starts no word (wordsStarting counts none there).
    let afterSpace = false;
    while (b < length) {
      if ((u & (ANCHOR_UNITS - 1)) === 0) anchors[u >> ANCHOR_SHIFT] = b;
      const lead = bytes[b]!;
      let space: boolean;
      if (lead < 0x80) {
        space = ASCII_SPACE[lead] === 1;
        b += 1;
      } else if (lead < 0xe0) {
        space = lead === 0xc2 && bytes[b + 1] === 0xa0;
        b += 2;
      } else {
        space = isWhiteSpacePastAscii(
          ((lead & 0x0f) << 12) | ((bytes[b + 1]! & 0x3f) << 6) | (bytes[b + 2]! & 0x3f),
        );
        b += 3;
      }
      if (!space && afterSpace) {
        if (n === starts.length) {
          const grown = new Uint32Array(n * 2);
          grown.set(starts);
          starts = grown;
        }
        starts[n++] = u;
      }
      afterSpace = space;
      u += 1;
    }
    this.found.starts = starts.slice(0, n);
    return this.found.starts;
  }

  /**
   * {@link wordsStarting} without a bound: how many words start in the code units `[from, to)`
   * (both within the text), from {@link wordStarts}.
   */
  wordsBetween(from: number, to: number): number {
    const starts = this.wordStarts();
    return from >= to ? 0 : lowerBound(starts, to) - lowerBound(starts, from);
  }

  /** Whether the text is empty. */
  get empty(): boolean {
    return this.bytes.length === 0 || this.limit <= 0;
  }

  /** Whether the text goes on past what the search analyses of it (`isCut` of text-scans.ts). */
  get isCut(): boolean {
    return this.bytes.length > ANALYZED_CHARACTERS && this.codeAt(ANALYZED_CHARACTERS) >= 0;
  }

  codeAt(unit: number): number {
    if (unit < 0 || unit >= this.limit) return -1;
    const bytes = this.bytes;
    if (unit === this.unit + 1 && this.byte < bytes.length && (unit & (ANCHOR_UNITS - 1)) !== 0) {
      // The next code unit (most reads): one step, no position to remember.
      const lead = bytes[this.byte]!;
      this.byte += lead < 0x80 ? 1 : lead < 0xe0 ? 2 : 3;
      this.unit = unit;
    } else if (unit !== this.unit) this.seek(unit);
    const at = this.byte;
    if (at >= bytes.length) return -1;
    const b0 = bytes[at]!;
    if (b0 < 0x80) return b0;
    if (b0 < 0xe0) return ((b0 & 0x1f) << 6) | (bytes[at + 1]! & 0x3f);
    return ((b0 & 0x0f) << 12) | ((bytes[at + 1]! & 0x3f) << 6) | (bytes[at + 2]! & 0x3f);
  }

  slice(start: number, end: number): string {
    const from = this.byteOf(start);
    return this.bytes.toString('utf8', from, Math.max(from, this.byteOf(end)));
  }

  wordsStarting(from: number, to: number, most: number): number {
    if (from >= to || most <= 0) return 0;
    let inWord = from === 0 || !isSpaceCode(this.codeAt(from - 1));
    const end = Math.min(to, this.limit);
    if (from >= end || this.codeAt(from) < 0) return 0;
    // From the cursor, at `from`: one code unit a step, the cursor kept where the count stops.
    const bytes = this.bytes;
    const length = bytes.length;
    const anchors = this.anchors;
    let next = anchors.length << ANCHOR_SHIFT;
    let u = this.unit;
    let b = this.byte;
    let words = 0;
    while (u < end && b < length && words < most) {
      const lead = bytes[b]!;
      let space: boolean;
      if (lead < 0x80) {
        space = ASCII_SPACE[lead] === 1;
        b += 1;
      } else if (lead < 0xe0) {
        // Below U+0800 only U+00A0 is white space.
        space = lead === 0xc2 && bytes[b + 1] === 0xa0;
        b += 2;
      } else {
        space = isWhiteSpacePastAscii(
          ((lead & 0x0f) << 12) | ((bytes[b + 1]! & 0x3f) << 6) | (bytes[b + 2]! & 0x3f),
        );
        b += 3;
      }
      if (!space && !inWord) words += 1;
      inWord = !space;
      u += 1;
      if (u === next) {
        anchors.push(b);
        next += ANCHOR_UNITS;
      }
    }
    this.unit = u;
    this.byte = Math.min(b, length);
    return words;
  }

  /** Where code unit `unit` starts in the bytes (their length at or past the end). */
  private byteOf(unit: number): number {
    if (unit <= 0) return 0;
    this.seek(Math.min(unit, this.limit));
    return this.byte;
  }

  /** Moves the cursor to code unit `unit` (or to the end of the bytes, if the text is shorter). */
  private seek(unit: number): void {
    if (unit === this.unit) return;
    // From the cursor, or from the last remembered position before `unit` when that is nearer.
    const anchor = Math.min(unit >> ANCHOR_SHIFT, this.anchors.length - 1);
    const anchorUnit = anchor << ANCHOR_SHIFT;
    if (unit < this.unit && this.unit - unit <= unit - anchorUnit) {
      this.back(unit);
      return;
    }
    if (unit < this.unit || anchorUnit > this.unit) {
      this.unit = anchorUnit;
      this.byte = this.anchors[anchor]!;
    }
    this.forward(unit);
  }

  private forward(unit: number): void {
    const bytes = this.bytes;
    const length = bytes.length;
    const anchors = this.anchors;
    let next = anchors.length << ANCHOR_SHIFT;
    let u = this.unit;
    let b = this.byte;
    while (u < unit && b < length) {
      const lead = bytes[b]!;
      b += lead < 0x80 ? 1 : lead < 0xe0 ? 2 : 3;
      u += 1;
      if (u === next) {
        anchors.push(b);
        next += ANCHOR_UNITS;
      }
    }
    this.unit = u;
    this.byte = Math.min(b, length);
  }

  private back(unit: number): void {
    const bytes = this.bytes;
    let u = this.unit;
    let b = this.byte;
    while (u > unit) {
      b -= 1;
      while ((bytes[b]! & 0xc0) === 0x80) b -= 1;
      u -= 1;
    }
    this.unit = u;
    this.byte = b;
  }
}

/** The first index of the ascending `xs` whose value is at least `value` (`xs.length` if none). */
function lowerBound(xs: Uint32Array, value: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
