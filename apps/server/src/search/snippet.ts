import { SNIPPET_CLOSE, SNIPPET_ELLIPSIS, SNIPPET_OPEN } from '../store/sqlite/search/index.js';
import { lightStem } from './light-stem.js';
import { type ParsedQuery, positiveClauses } from './query-parser.js';
import { isCut, ScannedText, type TextScans, wordStartsIn } from './text-scans.js';
import { isSpaceCode as isSpace, type SnippetUnits, StringUnits, Utf8Text } from './utf8-text.js';

/** Words (runs of non-space) a snippet shows: about what FTS5's `snippet()` showed with 30 tokens. */
export const SNIPPET_WORDS = 30;
/** A word longer than this (a URL, a minified line) is cut where the snippet starts or ends. */
const LONGEST_WORD = 40;

const WORD_AT = /[\p{L}\p{N}]+/uy;
const NEXT_WORD_AT = /[^\p{L}\p{N}]*([\p{L}\p{N}]+)/uy;
/** Derivational endings {@link markedStem} takes off ("security" / "secure", "functional" / "function"). */
const DERIVATIONAL = /(?:ation|ition|ment|ness|ence|ance|able|ible|ion|ity|ive|al|ly)$/;

/** A snippet in the stores' raw form (see {@link snippetToHtml}): matches between markers. */
export interface MarkedSnippet {
  text: string;
  /** How many of the query's clauses it marks. */
  clauses: number;
}

/** One way a clause can occur: its words in order, each tested on a lower-cased word of the text. */
interface Pattern {
  clause: number;
  /** What every matching first word starts with (found with `indexOf`). */
  start: string;
  words: ((word: string) => boolean)[];
}

/** Where a clause occurs in a text: characters `[at, end)`. */
interface Occurrence {
  at: number;
  end: number;
  clause: number;
}

/**
 * Builds snippets for the query's positive clauses from a page's text, without tokenizing it
 * (FTS5's `snippet()` tokenizes a whole body twice): each clause's occurrences are found with
 * `indexOf` on the lower-cased text and checked at a word start by {@link markedStem} (a light
 * stem, two derivational endings and a final `e`/`y` left off, near what the index's Porter stems
 * match; a synonym's too; a prefix clause's words start with its stem; a phrase's words follow
 * each other). The window is the {@link SNIPPET_WORDS} words (runs of non-space) holding the most
 * distinct clauses, then the most occurrences (as FTS5's `snippet()` scores a window), the first
 * such; the context is shared out before and after, started at a line start when one is among
 * the words before. Its occurrences are marked. `null` when the text holds no clause: Porter's
 * stems reach words these do not. Only the text's first {@link ANALYZED_CHARACTERS} characters are
 * searched (a word past them is not marked). `scanned`: the text's scans when another step
 * searched it too. A text given as its UTF-8 bytes ({@link Utf8Text}) needs its scans, with a word
 * index, and a query of single words ({@link snippetsReadOnlyWhiteSpace}): of such a text only
 * the white space near the words is read, and the window's text.
 *
 * @example
 * ```ts
 * const snippet = snippetBuilder(parseSearchQuery('sort list'));
 * snippet('To sort a list, call sorted().'); // { text: 'To \u0001sort\u0002 a \u0001list\u0002, call sorted().', clauses: 2 }
 * ```
 */
export function snippetBuilder(
  query: ParsedQuery,
): (text: string | Utf8Text, scanned?: ScannedText) => MarkedSnippet | null {
  const patterns = patternsOf(query);
  const wordsOnly = patterns.every((pattern) => pattern.words.length === 1);
  return (text, scanned) => {
    if (patterns.length === 0) return null;
    if (typeof text === 'string') {
      if (text === '') return null;
      const scans = scanned?.source === text ? scanned : new ScannedText(text);
      const occurrences = occurrencesOf(scans, patterns);
      return occurrences.length === 0 ? null : windowAround(new StringUnits(scans.text), occurrences);
    }
    // Bytes: the words are read from the word index, and no phrase is looked for in them.
    if (scanned?.words == null || !wordsOnly)
      throw new Error('a text read as bytes needs a word index and a query of single words');
    if (text.empty) return null;
    const occurrences = occurrencesOf(scanned, patterns);
    return occurrences.length === 0 ? null : windowAround(text.analyzed(), occurrences);
  };
}

/**
 * Whether the query's snippets read of a page's body only its white space, when the page has a
 * word index: every positive clause and synonym is one word (a phrase reads the words after its
 * first). A body may then be given as its UTF-8 bytes (see {@link SnippetSource.body}).
 */
export function snippetsReadOnlyWhiteSpace(query: ParsedQuery): boolean {
  return patternsOf(query).every((pattern) => pattern.words.length === 1);
}

/**
 * A returned page's snippet: of its body when the body holds a clause, else of its title or
 * headings (the one marking more clauses, the title on a tie), else `null` (the caller asks the
 * index, whose stems reach further), except for a body longer than the search analyses
 * ({@link ANALYZED_CHARACTERS}): its opening words then, unmarked (the index's snippet would read the
 * whole body). `body`: the body's scans when another step searched it too.
 */
export function pageSnippet(
  build: (text: string | Utf8Text, scanned?: ScannedText) => MarkedSnippet | null,
  page: SnippetSource,
  body?: ScannedText,
): string | null {
  const bodySnippet = build(page.body, body);
  if (bodySnippet !== null) return bodySnippet.text;
  const title = build(page.title ?? '');
  const headings = build(page.headings);
  if (headings !== null && (title === null || headings.clauses > title.clauses)) return headings.text;
  if (title !== null) return title.text;
  if (typeof page.body === 'string')
    return isCut(page.body) ? openingSnippet(new StringUnits(page.body)) : null;
  return page.body.isCut ? openingSnippet(page.body) : null;
}

/** The first {@link SNIPPET_WORDS} words of `text`, unmarked, an ellipsis after them. */
function openingSnippet(text: SnippetUnits): string {
  const start = skipSpace(text, 0);
  const { end } = wordsAfter(text, start, SNIPPET_WORDS);
  return `${text.slice(start, end)}${text.codeAt(skipSpace(text, end)) >= 0 ? SNIPPET_ELLIPSIS : ''}`;
}

/** What a page's snippet is built from. */
export interface SnippetSource {
  /**
   * The body, or its UTF-8 bytes ({@link Utf8Text}, read without being made into a string): the
   * page must then have a word index and the query be of single words ({@link snippetsReadOnlyWhiteSpace}).
   */
  body: string | Utf8Text;
  title: string | null;
  headings: string;
}

/**
 * The snippets of the returned pages `seqs`, built from their text (`pageOf`: `undefined` for a
 * page gone meanwhile) by {@link pageSnippet}, and `unbuilt`: the pages none was built for, which
 * the caller may ask its index for (its stems reach further). What both stores share. `scans`: the
 * bodies' scans the passage step made (a body it read is not lower-cased and searched again).
 */
export function snippetsOfPages(
  query: ParsedQuery,
  seqs: readonly number[],
  pageOf: (seq: number) => SnippetSource | undefined,
  scans: TextScans | null = null,
): { snippets: Map<number, string>; unbuilt: number[] } {
  const build = snippetBuilder(query);
  const snippets = new Map<number, string>();
  const unbuilt: number[] = [];
  for (const seq of seqs) {
    const page = pageOf(seq);
    const scanned =
      page === undefined ? undefined : scans?.of(seq, typeof page.body === 'string' ? page.body : undefined);
    const snippet = page === undefined ? null : pageSnippet(build, page, scanned);
    if (snippet !== null) snippets.set(seq, snippet);
    else unbuilt.push(seq);
  }
  return { snippets, unbuilt };
}

/** The texts the snippets search for the query's words (see {@link TextScans}). */
export function snippetNeedles(query: ParsedQuery): string[] {
  return patternsOf(query).map((pattern) => pattern.start);
}

function patternsOf(query: ParsedQuery): Pattern[] {
  const patterns: Pattern[] = [];
  positiveClauses(query).forEach((clause, index) => {
    const words = clause.words;
    if (words.length === 0) return;
    const last = words.length - 1;
    // FTS5 stems a prefix as it stems a word ("tests"* finds "testing"): so does the mark.
    const tests = words.map((word, i) =>
      i === last && clause.prefix ? startsWith(markedStem(word)) : sameStem(word),
    );
    patterns.push({ clause: index, start: startOf(words[0]!), words: tests });
    for (const alternative of clause.alternatives)
      patterns.push({ clause: index, start: startOf(alternative), words: [sameStem(alternative)] });
  });
  return patterns;
}

function startsWith(prefix: string): (word: string) => boolean {
  return (word) => word.startsWith(prefix);
}

/**
 * Words of the same light stem, a final `e` or `y` left off ("delete" and "deleting" mark alike;
 * the ranking's light stems keep them apart, the index's Porter stems do not).
 */
function sameStem(word: string): (word: string) => boolean {
  const stem = markedStem(word);
  // Most occurrences are the word as typed: no stemming for them.
  return (other) => other === word || markedStem(other) === stem;
}

function markedStem(word: string): string {
  let stem = lightStem(word);
  // Up to two derivational endings, as Porter's stems (what the index matched) take them off.
  for (let i = 0; i < 2; i += 1) {
    const ending = DERIVATIONAL.exec(stem);
    if (ending === null || stem.length - ending[0].length < 4) break;
    stem = stem.slice(0, -ending[0].length);
  }
  return stem.length > 3 && /[ey]$/.test(stem) ? stem.slice(0, -1) : stem;
}

/** The text every word of the same {@link markedStem} starts with ("dictionaries": "dictionar"), or the prefix. */
function startOf(word: string): string {
  return markedStem(word);
}

/** Every occurrence of the patterns in `text`, in text order, overlapping ones left out. */
function occurrencesOf(text: ScannedText, patterns: readonly Pattern[]): Occurrence[] {
  // The text's scans are those of `toLowerCase`, whose offsets are the text's when it is as long.
  const found: Occurrence[] = [];
  if (text.charForChar) {
    for (const pattern of patterns) {
      // A one-word pattern: each distinct word at the start tested once, and ends with it (no
      // lower-cased text needed when the text has a word index). A phrase reads the words after it.
      for (const { word, starts } of text.wordsAt(pattern.start)) {
        if (pattern.words.length === 1) {
          if (pattern.words[0]!(word))
            for (const at of starts) found.push({ at, end: at + word.length, clause: pattern.clause });
          continue;
        }
        for (const at of starts) {
          const end = phraseEnd(text.lower, at, pattern.words);
          if (end !== null) found.push({ at, end, clause: pattern.clause });
        }
      }
    }
  } else {
    const lower = lowerCased(text.text);
    for (const pattern of patterns) {
      for (const at of wordStartsIn(lower, pattern.start)) {
        const end = phraseEnd(lower, at, pattern.words);
        if (end !== null) found.push({ at, end, clause: pattern.clause });
      }
    }
  }
  found.sort((a, b) => a.at - b.at || b.end - a.end);
  const kept: Occurrence[] = [];
  for (const occurrence of found)
    if (kept.length === 0 || occurrence.at >= kept.at(-1)!.end) kept.push(occurrence);
  return kept;
}

/** Where the words of a pattern starting at `at` end, or null when they do not follow each other there. */
function phraseEnd(lower: string, at: number, words: readonly ((word: string) => boolean)[]): number | null {
  WORD_AT.lastIndex = at;
  const first = WORD_AT.exec(lower)?.[0] ?? '';
  if (!words[0]!(first)) return null;
  let end = at + first.length;
  for (let i = 1; i < words.length; i += 1) {
    NEXT_WORD_AT.lastIndex = end;
    const next = NEXT_WORD_AT.exec(lower);
    if (next === null || !words[i]!(next[1]!)) return null;
    end = NEXT_WORD_AT.lastIndex;
  }
  return end;
}

/** The text lower-cased, character for character (offsets stay those of `text`). */
function lowerCased(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  // `İ` lower-cases to two characters: keep such characters as they are.
  return text.replace(/[^\0-\x7f]/gu, (c) => {
    const l = c.toLowerCase();
    return l.length === c.length ? l : c;
  });
}

/**
 * The best cluster's window, cut on word boundaries, its occurrences marked. Only the text's white
 * space is read near the occurrences, and the window's text.
 */
function windowAround(text: SnippetUnits, occurrences: readonly Occurrence[]): MarkedSnippet {
  const [first, last] = densestCluster(occurrences, wordNumbers(text, occurrences));
  const from = occurrences[first]!.at;
  const to = occurrences[last]!.end;
  // The whole words holding the cluster (a very long word cut).
  let start = Math.max(wordStart(text, from), from - LONGEST_WORD);
  let end = Math.min(wordEnd(text, to), to + LONGEST_WORD);
  const words = wordsIn(text, start, end);
  if (words > SNIPPET_WORDS) {
    end = wordsAfter(text, start, SNIPPET_WORDS).end;
  } else {
    // The context shared out before and after; what one side lacks goes to the other.
    const spare = SNIPPET_WORDS - words;
    let before = wordsBefore(text, start, Math.floor(spare / 2));
    // A line (paragraph) starting among the words before reads better than a cut sentence.
    const line = lineBreakBetween(text, before.start, start);
    const atLine = line >= 0;
    if (atLine) before = { start: skipSpace(text, line + 1), words: wordsIn(text, line + 1, start) };
    const after = wordsAfter(text, end, spare - before.words);
    end = after.end;
    if (!atLine && after.words < spare - before.words) before = wordsBefore(text, start, spare - after.words);
    start = before.start;
  }
  let marked = 0;
  const clauses = new Set<number>();
  const parts: string[] = [];
  if (nonSpaceBefore(text, start)) parts.push(SNIPPET_ELLIPSIS);
  let at = start;
  for (const o of occurrences) {
    if (o.at < start || o.end > end) continue;
    parts.push(text.slice(at, o.at), SNIPPET_OPEN, text.slice(o.at, o.end), SNIPPET_CLOSE);
    at = o.end;
    clauses.add(o.clause);
    marked += 1;
  }
  parts.push(text.slice(at, end));
  if (text.codeAt(skipSpace(text, end)) >= 0) parts.push(SNIPPET_ELLIPSIS);
  return { text: parts.join(''), clauses: marked === 0 ? 0 : clauses.size };
}

/**
 * The first and last index of the occurrences in the best window: the most distinct clauses
 * within {@link SNIPPET_WORDS} words, then the most occurrences (FTS5's `snippet()` scores a
 * window's first hit of a phrase 1,000 and each repeat 1), then the first such window.
 */
function densestCluster(occurrences: readonly Occurrence[], words: readonly number[]): [number, number] {
  const count: number[] = [];
  let distinct = 0;
  let best: [number, number] = [0, 0];
  let bestScore = -1;
  let left = 0;
  occurrences.forEach((o, right) => {
    if ((count[o.clause] ?? 0) === 0) distinct += 1;
    count[o.clause] = (count[o.clause] ?? 0) + 1;
    while (words[right]! - words[left]! >= SNIPPET_WORDS && left < right) {
      const clause = occurrences[left]!.clause;
      count[clause] = (count[clause] ?? 1) - 1;
      if (count[clause] === 0) distinct -= 1;
      left += 1;
    }
    const score = distinct * 1000 + (right - left + 1);
    if (score > bestScore) {
      bestScore = score;
      best = [left, right];
    }
  });
  return best;
}

/**
 * Each occurrence's word number (words: runs of non-space) counted from the first occurrence,
 * by character code over the text between them; a gap of {@link SNIPPET_WORDS} words or more is
 * not counted further (no window spans it). A text's bytes ({@link Utf8Text}) count from where
 * their words start, found once: a gap unbounded, which {@link densestCluster} compares alike (a
 * sum of gaps reaches {@link SNIPPET_WORDS} bounded or not).
 */
function wordNumbers(text: SnippetUnits, occurrences: readonly Occurrence[]): number[] {
  // Of a text's bytes, from where its words start: a gap's count unbounded, which compares alike
  // with the window's width (a sum of gaps reaches it bounded or not).
  if (text instanceof Utf8Text && text.countsByStarts) {
    const first = occurrences[0]?.at ?? 0;
    return occurrences.map((o) => text.wordsBetween(first, o.at));
  }
  const numbers: number[] = [];
  let words = 0;
  let at = occurrences[0]?.at ?? 0;
  for (const o of occurrences) {
    words += text.wordsStarting(at, o.at, SNIPPET_WORDS);
    at = o.at;
    numbers.push(words);
  }
  return numbers;
}

/** Whether `code` (a code unit, or -1 past the text) is white space as `\s` has it, or the end. */
function isSpaceOrEnd(code: number): boolean {
  return code < 0 || isSpace(code);
}

function wordStart(text: SnippetUnits, at: number): number {
  let i = at;
  while (i > 0 && !isSpace(text.codeAt(i - 1))) i -= 1;
  return i;
}

function wordEnd(text: SnippetUnits, at: number): number {
  let i = at;
  while (!isSpaceOrEnd(text.codeAt(i))) i += 1;
  return i;
}

/** Whether `text` holds a non-space character before `at`. */
function nonSpaceBefore(text: SnippetUnits, at: number): boolean {
  for (let i = at - 1; i >= 0; i -= 1) if (!isSpace(text.codeAt(i))) return true;
  return false;
}

function skipSpace(text: SnippetUnits, at: number): number {
  let i = at;
  while (isSpace(text.codeAt(i))) i += 1;
  return i;
}

/** The last line break (`\n`) of `text` in `[from, to)`, or -1. */
function lineBreakBetween(text: SnippetUnits, from: number, to: number): number {
  for (let i = to - 1; i >= from; i -= 1) if (text.codeAt(i) === 10) return i;
  return -1;
}

/** How many words (runs of non-space) `text` holds between `start` and `end`. */
function wordsIn(text: SnippetUnits, start: number, end: number): number {
  let words = 0;
  let inWord = false;
  for (let i = start; i < end; i += 1) {
    const code = text.codeAt(i);
    if (code < 0) break;
    const space = isSpace(code);
    if (!space && !inWord) words += 1;
    inWord = !space;
  }
  return words;
}

/** Up to `n` words before `at` (each at most {@link LONGEST_WORD} characters): where they start, how many. */
function wordsBefore(text: SnippetUnits, at: number, n: number): { start: number; words: number } {
  let start = at;
  let words = 0;
  let i = at;
  while (words < n) {
    while (i > 0 && isSpace(text.codeAt(i - 1))) i -= 1;
    if (i === 0) break;
    const end = i;
    while (i > 0 && !isSpace(text.codeAt(i - 1)) && end - i < LONGEST_WORD) i -= 1;
    start = i;
    words += 1;
    if (i > 0 && !isSpace(text.codeAt(i - 1))) break; // a long word cut: the snippet starts there
  }
  return { start, words };
}

/** Up to `n` words after `at` (each at most {@link LONGEST_WORD} characters): where they end, how many. */
function wordsAfter(text: SnippetUnits, at: number, n: number): { end: number; words: number } {
  let end = at;
  let words = 0;
  let i = at;
  while (words < n) {
    while (isSpace(text.codeAt(i))) i += 1;
    if (text.codeAt(i) < 0) break;
    const start = i;
    while (!isSpaceOrEnd(text.codeAt(i)) && i - start < LONGEST_WORD) i += 1;
    end = i;
    words += 1;
    if (!isSpaceOrEnd(text.codeAt(i))) break; // a long word cut: the snippet ends there
  }
  return { end, words };
}
