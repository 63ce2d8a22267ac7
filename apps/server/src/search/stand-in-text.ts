import { isWhiteSpacePastAscii } from './snippet.js';

/** A run of bytes past ASCII in a UTF-8 text read as Latin-1: whole characters (UTF-8 keeps ASCII bytes for ASCII). */
const PAST_ASCII = /[\x80-\xff]+/g;
/** What stands in for a code unit past ASCII: white space as `\s` has it, or anything else. */
const SPACE_STAND_IN = '\u00a0';
const OTHER_STAND_IN = '\u0080';

/**
 * A page's text read as its UTF-8 bytes, for a snippet that asks of most of the text only where
 * its white space is (snippet.ts): `text` is one character per UTF-16 code unit of the text, ASCII
 * as it is and each code unit past ASCII replaced by a stand-in (U+00A0 for white space, U+0080
 * for anything else), so its offsets, length, line breaks and words (runs of non-space) are the
 * text's; `slice` gives the text itself between two offsets. A long page's text made into a string
 * cost most of its snippet: V8 decodes UTF-8 holding any character past ASCII character by
 * character, into a two-byte string, and one over 64 K characters is allocated in its large-object
 * space (13–16 ns a character on the real-page bench, against ~1 for reading the bytes as Latin-1).
 * Null for a text holding a character past the Basic Multilingual Plane (two code units).
 *
 * @example
 * ```ts
 * const text = standInText(Buffer.from('caf\u00e9 ok', 'utf8'))!;
 * text.text; // 'caf\u0080 ok'
 * text.slice(0, 4); // 'café'
 * ```
 */
export function standInText(bytes: Buffer): StandInText | null {
  const runs: Run[] = [];
  let shift = 0;
  let pastBmp = false;
  // A page repeats a few such runs (’, ¶, —): each is decoded once.
  const known = new Map<string, { standIn: string; units: number } | null>();
  const text = bytes.toString('latin1').replace(PAST_ASCII, (run: string, at: number) => {
    let stood = known.get(run);
    if (stood === undefined) {
      stood = standInOf(bytes.toString('utf8', at, at + run.length));
      known.set(run, stood);
    }
    if (stood === null) {
      pastBmp = true;
      return run;
    }
    runs.push({ unit: at - shift, byte: at, units: stood.units, bytes: run.length });
    shift += run.length - stood.units;
    return stood.standIn;
  });
  return pastBmp ? null : new StandInText(text, bytes, runs);
}

/** The stand-in of characters past ASCII, or null when they hold a surrogate (a character past the BMP). */
function standInOf(real: string): { standIn: string; units: number } | null {
  let standIn = '';
  for (let i = 0; i < real.length; i += 1) {
    const code = real.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) return null;
    standIn += isWhiteSpacePastAscii(code) ? SPACE_STAND_IN : OTHER_STAND_IN;
  }
  return { standIn, units: real.length };
}

/** A run of characters past ASCII: where it starts in code units and in bytes, and how long it is in each. */
interface Run {
  unit: number;
  byte: number;
  units: number;
  bytes: number;
}

/** See {@link standInText}. */
export class StandInText {
  constructor(
    /** One character per code unit of the text: ASCII as it is, U+00A0 for white space past it, U+0080 for the rest. */
    readonly text: string,
    private readonly bytes: Buffer,
    private readonly runs: readonly Run[],
  ) {}

  /** The text's code units `[start, end)`, as `String.prototype.slice` of the text would give them. */
  slice(start: number, end?: number): string {
    const length = this.text.length;
    const from = clamp(start, length);
    const to = Math.max(from, end === undefined ? length : clamp(end, length));
    return this.bytes.toString('utf8', this.byteOf(from), this.byteOf(to));
  }

  /** The byte offset of code unit `unit` (at a character's start: the text has no surrogate pair). */
  private byteOf(unit: number): number {
    // The last run starting at or before `unit`.
    let low = 0;
    let high = this.runs.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (this.runs[middle]!.unit <= unit) {
        found = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    if (found < 0) return unit;
    const run = this.runs[found]!;
    if (unit >= run.unit + run.units) return run.byte + run.bytes + (unit - run.unit - run.units);
    // Inside the run: its characters' UTF-8 lengths (2 bytes below U+0800, else 3).
    const real = this.bytes.toString('utf8', run.byte, run.byte + run.bytes);
    let byte = run.byte;
    for (let i = 0; i < unit - run.unit; i += 1) byte += real.charCodeAt(i) < 0x800 ? 2 : 3;
    return byte;
  }
}

/** `String.prototype.slice`'s reading of an offset: negative from the end, then within `[0, length]`. */
function clamp(offset: number, length: number): number {
  const at = offset < 0 ? Math.max(0, length + offset) : Math.min(offset, length);
  return Number.isNaN(at) ? 0 : Math.trunc(at);
}
