import { stripMarkerCharacters } from './marker-characters.js';
import { analyzedPart } from './text-scans.js';
import type { IndexedDocument } from './types.js';

/**
 * Whether UTF-16 code unit `code` is a letter or a digit (`[\p{L}\p{N}]`), for a code unit that is
 * not a surrogate (a word index is only built for texts without any).
 */
const LETTER_OR_DIGIT_UNIT = (() => {
  const table = new Uint8Array(0x10000);
  const test = /[\p{L}\p{N}]/u;
  for (let code = 0; code < 0x10000; code += 1)
    if ((code < 0xd800 || code > 0xdfff) && test.test(String.fromCharCode(code))) table[code] = 1;
  return table;
})();

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The words of a page's body as the passage step and the snippets look for them, computed once
 * when the page is indexed so that a search neither lower-cases nor scans the body: every run of
 * letters and digits (`[\p{L}\p{N}]+`) of the lower-cased analysed part of the body
 * ({@link analyzedPart}, then `toLowerCase`), each distinct one with the offsets where it starts.
 * Null for a body whose lower-cased text is not one code unit per code unit of it (`İ`) or holds
 * a surrogate (a character past the Basic Multilingual Plane): such a page is scanned as before.
 *
 * For a needle of letters and digits ({@link isIndexedNeedle}), the offsets where it occurs in the
 * lower-cased text at a word start (`wordStartsIn`: no letter or digit before it) are exactly the
 * starts of the runs that begin with it (a run begins where the code unit before it is no letter
 * or digit, and a needle of letters and digits found there lies inside that run), and the word
 * the passage step reads there (`[\p{L}\p{N}]+` from that offset) is that run.
 *
 * Layout (little-endian): `u32` word count V, `u32` code units of the words, `u32` flags (1: the
 * numbers below are `u16`, else `u32`; 2: the words' code units are `u8`, else `u16`); V + 1 word
 * offsets (into the words' code units); V + 1 posting offsets (into the starts); the starts (each
 * word's in text order, the words in code-unit order); the words' code units. Narrow numbers when
 * every offset and start fits (a text under 65,536 characters) and narrow code units when every
 * word is Latin-1 keep most pages' index under the size of their body.
 */
export function buildWordIndex(body: string): Buffer | null {
  const text = analyzedPart(body);
  const lower = text.toLowerCase();
  if (lower.length !== text.length || SURROGATE.test(lower)) return null;
  const { count, tokens, tokenWords, tokenStarts, wordStarts, wordLengths, latin1 } = wordsOf(lower);
  const words = new Array<string>(count);
  const idOf = new Map<string, number>();
  for (let w = 0; w < count; w += 1) {
    const word = lower.slice(wordStarts[w], wordStarts[w]! + wordLengths[w]!);
    words[w] = word;
    idOf.set(word, w);
  }
  // Code-unit order (the default sort): the words starting with a needle are one range of them.
  const sorted = [...words].sort();
  let units = 0;
  for (let w = 0; w < count; w += 1) units += wordLengths[w]!;
  // The numbers (word offsets, posting offsets, starts) and code units, then narrowed if they fit.
  const numbers = new Uint32Array(2 * (count + 1) + tokens);
  const chars = new Uint16Array(units);
  const postingOffsets = count + 1;
  const postings = 2 * (count + 1);
  const next = new Int32Array(count);
  const counts = new Int32Array(count);
  for (let t = 0; t < tokens; t += 1) counts[tokenWords[t]!]! += 1;
  let unit = 0;
  let posting = 0;
  for (let rank = 0; rank < count; rank += 1) {
    const word = sorted[rank]!;
    const w = idOf.get(word)!;
    numbers[rank] = unit;
    numbers[postingOffsets + rank] = posting;
    next[w] = postings + posting;
    for (let i = 0; i < word.length; i += 1) chars[unit + i] = word.charCodeAt(i);
    unit += word.length;
    posting += counts[w]!;
  }
  numbers[count] = unit;
  numbers[postingOffsets + count] = posting;
  for (let t = 0; t < tokens; t += 1) numbers[next[tokenWords[t]!]!++] = tokenStarts[t]!;
  const narrow = lower.length <= 0xffff && tokens <= 0xffff && units <= 0xffff;
  const charsAt = 12 + (narrow ? 2 : 4) * numbers.length;
  const buffer = Buffer.alloc(charsAt + (latin1 ? 1 : 2) * units);
  const header = new Uint32Array(buffer.buffer, buffer.byteOffset, 3);
  header[0] = count;
  header[1] = units;
  header[2] = (narrow ? 1 : 0) | (latin1 ? 2 : 0);
  if (narrow) new Uint16Array(buffer.buffer, buffer.byteOffset + 12, numbers.length).set(numbers);
  else new Uint32Array(buffer.buffer, buffer.byteOffset + 12, numbers.length).set(numbers);
  if (latin1) new Uint8Array(buffer.buffer, buffer.byteOffset + charsAt, units).set(chars);
  else new Uint16Array(buffer.buffer, buffer.byteOffset + charsAt, units).set(chars);
  return buffer;
}

/**
 * The word index a store keeps beside a document given with `body` (`IndexedDocument.body`): that
 * of the body as stored, its marker characters blanked ({@link stripMarkerCharacters}) as the store
 * does. A crawl builds it where it makes the body, on a converter thread (`convertFetched`), and
 * hands it to the store with the document ({@link wordIndexToStore}), so the main thread neither
 * builds it nor copies it (the thread's buffer is moved, not cloned).
 */
export function documentWordIndex(body: string): Buffer | null {
  return buildWordIndex(stripMarkerCharacters(body));
}

/**
 * The word index a store writes beside `storedBody` (`doc.body` as stored, marker characters
 * blanked): the one the document came with ({@link documentWordIndex} of its body), or, given
 * without one (tools, tests, a server converting inline), built here.
 */
export function wordIndexToStore(doc: Pick<IndexedDocument, 'words'>, storedBody: string): Uint8Array | null {
  return doc.words !== undefined ? doc.words : buildWordIndex(storedBody);
}

/**
 * The runs of letters and digits of `lower` (no surrogates): each token's word (numbered in
 * order of first occurrence) and start, each word's first start and length. Words are told apart by
 * a hash table over the text itself: no string is made for a word seen before.
 */
function wordsOf(lower: string): {
  count: number;
  tokens: number;
  tokenWords: Int32Array;
  tokenStarts: Int32Array;
  wordStarts: Int32Array;
  wordLengths: Int32Array;
  latin1: boolean;
} {
  let tokenWords = new Int32Array(256);
  let tokenStarts = new Int32Array(256);
  let wordStarts = new Int32Array(64);
  let wordLengths = new Int32Array(64);
  let wordHashes = new Int32Array(64);
  let slots = new Int32Array(128); // word + 1, 0: empty
  let count = 0;
  let tokens = 0;
  let latin1 = true;
  for (let at = 0; at < lower.length; ) {
    let code = lower.charCodeAt(at);
    if (LETTER_OR_DIGIT_UNIT[code] === 0) {
      at += 1;
      continue;
    }
    let end = at;
    let hash = 0x811c9dc5;
    let highest = 0;
    do {
      hash = Math.imul(hash ^ code, 0x01000193);
      if (code > highest) highest = code;
      end += 1;
      code = end < lower.length ? lower.charCodeAt(end) : 0;
    } while (end < lower.length && LETTER_OR_DIGIT_UNIT[code] === 1);
    if (highest > 0xff) latin1 = false;
    const length = end - at;
    const mask = slots.length - 1;
    let slot = hash & mask;
    let word = -1;
    for (let found = slots[slot]!; found !== 0; found = slots[slot]!) {
      const w = found - 1;
      if (
        wordHashes[w] === hash &&
        wordLengths[w] === length &&
        sameUnits(lower, wordStarts[w]!, at, length)
      ) {
        word = w;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (word < 0) {
      word = count;
      if (count === wordStarts.length) {
        wordStarts = grown(wordStarts);
        wordLengths = grown(wordLengths);
        wordHashes = grown(wordHashes);
      }
      wordStarts[word] = at;
      wordLengths[word] = length;
      wordHashes[word] = hash;
      slots[slot] = word + 1;
      count += 1;
      // At most half full: grown and filled again from the words' hashes.
      if (count * 2 > slots.length) {
        slots = new Int32Array(slots.length * 2);
        const wider = slots.length - 1;
        for (let w = 0; w < count; w += 1) {
          let s = wordHashes[w]! & wider;
          while (slots[s] !== 0) s = (s + 1) & wider;
          slots[s] = w + 1;
        }
      }
    }
    if (tokens === tokenWords.length) {
      tokenWords = grown(tokenWords);
      tokenStarts = grown(tokenStarts);
    }
    tokenWords[tokens] = word;
    tokenStarts[tokens] = at;
    tokens += 1;
    at = end;
  }
  return { count, tokens, tokenWords, tokenStarts, wordStarts, wordLengths, latin1 };
}

function sameUnits(text: string, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i += 1) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  return true;
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const wider = new Int32Array(array.length * 2);
  wider.set(array);
  return wider;
}

/** One distinct word of a text and where it starts (in text order). */
export interface IndexedWord {
  word: string;
  starts: Uint16Array | Uint32Array;
}

/** A {@link buildWordIndex} read back: the words starting with a needle, and where. */
export class WordIndex {
  private readonly count: number;
  private readonly wordOffsets: Uint16Array | Uint32Array;
  private readonly postingOffsets: Uint16Array | Uint32Array;
  private readonly postings: Uint16Array | Uint32Array;
  private readonly chars: Uint8Array | Uint16Array;

  constructor(bytes: Uint8Array) {
    // Typed arrays over the bytes need them 4-byte aligned: a copy when they are not.
    const data = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
    const { buffer, byteOffset } = data;
    const [count, units, flags] = new Uint32Array(buffer, byteOffset, 3) as unknown as [
      number,
      number,
      number,
    ];
    const narrow = (flags & 1) !== 0;
    const numbers = (from: number, length: number) =>
      narrow ? new Uint16Array(buffer, from, length) : new Uint32Array(buffer, from, length);
    const at = byteOffset + 12;
    const width = narrow ? 2 : 4;
    this.count = count;
    this.wordOffsets = numbers(at, count + 1);
    this.postingOffsets = numbers(at + width * (count + 1), count + 1);
    const tokens = this.postingOffsets[count]!;
    this.postings = numbers(at + 2 * width * (count + 1), tokens);
    const charsAt = at + width * (2 * (count + 1) + tokens);
    this.chars =
      (flags & 2) !== 0 ? new Uint8Array(buffer, charsAt, units) : new Uint16Array(buffer, charsAt, units);
  }

  /** The distinct words starting with `needle` (code-unit order), each with its starts. */
  wordsStartingWith(needle: string): IndexedWord[] {
    const found: IndexedWord[] = [];
    for (let w = this.firstNotBefore(needle); w < this.count && this.startsWith(w, needle); w += 1) {
      const from = this.wordOffsets[w]!;
      const to = this.wordOffsets[w + 1]!;
      let word = '';
      for (let i = from; i < to; i += 1) word += String.fromCharCode(this.chars[i]!);
      found.push({
        word,
        starts: this.postings.subarray(this.postingOffsets[w]!, this.postingOffsets[w + 1]!),
      });
    }
    return found;
  }

  /** Every start of a word starting with `needle`, in text order. */
  startsOf(needle: string): number[] {
    const words = this.wordsStartingWith(needle);
    if (words.length === 1) return Array.from(words[0]!.starts);
    const starts: number[] = [];
    for (const { starts: of } of words) for (const at of of) starts.push(at);
    return starts.sort((a, b) => a - b);
  }

  /** The first word (by code-unit order) not before `needle`. */
  private firstNotBefore(needle: string): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(mid, needle) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Word `w` against `needle` in code-unit order. */
  private compare(w: number, needle: string): number {
    const from = this.wordOffsets[w]!;
    const length = this.wordOffsets[w + 1]! - from;
    const n = Math.min(length, needle.length);
    for (let i = 0; i < n; i += 1) {
      const d = this.chars[from + i]! - needle.charCodeAt(i);
      if (d !== 0) return d;
    }
    return length - needle.length;
  }

  private startsWith(w: number, needle: string): boolean {
    const from = this.wordOffsets[w]!;
    if (this.wordOffsets[w + 1]! - from < needle.length) return false;
    for (let i = 0; i < needle.length; i += 1)
      if (this.chars[from + i] !== needle.charCodeAt(i)) return false;
    return true;
  }
}
