import { type SnippetPart, snippetParts } from '@webdata/core';

/** Words of a passage: runs of letters and digits (Markdown's marks and links fall between them). */
const WORD = /[\p{L}\p{N}]+/gu;
/** How many of the snippet's words must follow one another in the page to count as its place. */
const WINDOW = 6;
/**
 * What may stand between two words of the passage in the page: anything but letters and digits
 * (`**`, `` ` ``, line breaks, `#`), and a Markdown link's target (`](https://…)`), which the
 * snippet, made of the indexed text, does not carry. At most 64 of them, so that a passage does
 * not run on across a long stretch of symbols.
 */
const GAP = String.raw`(?:[^\p{L}\p{N}]|\]\([^()\s]{0,2048}\))`;
const SEPARATOR = `${GAP}{1,64}`;
/** The selection runs on for at most this many of the snippet's words (the service sends 30). */
const MAX_WORDS = 200;

/**
 * Where a search hit's passage is in its page's text: the offsets of the
 * snippet's words as far as they run on one after another in the page, with
 * anything but letters and digits (or a link's target) between them, since
 * the page is Markdown (`**`, links, line breaks) and the snippet plain text.
 * The place is found by a run of six of them (all, when fewer) from its
 * first matched word (`<mark>`, or ending with the snippet); other runs are
 * tried when that one is not found. From there the passage is grown word by
 * word both ways while the snippet's words follow in the page, so the whole
 * passage is selected, not six words of it: from its first word to its last,
 * or up to where the page differs (a snippet's `…` joining two stretches, a
 * page changed since it was indexed), at most 200 words. `undefined` when no
 * run is found.
 *
 * @example
 * ```ts
 * passageOffsets('# Lamp\n\nHandmade, **shipped** in two days.', 'Lamp … Handmade, <mark>shipped</mark> in two days');
 * // { start: 9, end: 41 }: 'Handmade, **shipped** in two days'
 * ```
 */
export function passageOffsets(text: string, snippet: string): { start: number; end: number } | undefined {
  const parts = snippetParts(snippet);
  const words = wordsOf(parts);
  if (words.length === 0) return undefined;
  const markAt = parts.findIndex((part) => part.match);
  const firstMarked = markAt < 0 ? 0 : wordsOf(parts.slice(0, markAt)).length;
  const length = Math.min(WINDOW, words.length);
  const last = words.length - length;
  // The run with the first matched word (ending with the snippet when the word is near its end), then
  // the runs after it, then those before it, nearest first.
  const first = Math.min(firstMarked, last);
  const starts = [first, ...range(first + 1, last), ...range(0, first - 1).reverse()];
  for (const start of starts) {
    const run = words
      .slice(start, start + length)
      .map(escapeRegExp)
      .join(SEPARATOR);
    const match = new RegExp(`(?<![\\p{L}\\p{N}])${run}(?![\\p{L}\\p{N}])`, 'u').exec(text);
    if (match) {
      return grow(text, words, {
        from: start,
        to: start + length,
        start: match.index,
        end: match.index + match[0].length,
      });
    }
  }
  return undefined;
}

/**
 * The found run of words (`words[from..to)` at `text[start..end)`) grown forward, then backward, for
 * as long as the snippet's next word (previous word) stands next in the page as a whole word.
 */
function grow(
  text: string,
  words: readonly string[],
  found: { from: number; to: number; start: number; end: number },
): { start: number; end: number } {
  let { from, to, start, end } = found;
  while (to < words.length && to - from < MAX_WORDS) {
    const next = new RegExp(`${SEPARATOR}${escapeRegExp(words[to]!)}(?![\\p{L}\\p{N}])`, 'uy');
    next.lastIndex = end;
    const match = next.exec(text);
    if (!match) break;
    end = next.lastIndex;
    to += 1;
  }
  while (from > 0 && to - from < MAX_WORDS) {
    const word = words[from - 1]!;
    // The word and what separates it from the passage: a few kilobytes at most (a link's target or two).
    const before = text.slice(Math.max(0, start - word.length - 4096), start);
    const previous = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}${SEPARATOR}$`, 'u').exec(before);
    if (!previous) break;
    start -= before.length - previous.index;
    from -= 1;
  }
  return { start, end };
}

function escapeRegExp(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function wordsOf(parts: readonly SnippetPart[]): string[] {
  return (
    parts
      .map((part) => part.text)
      .join('')
      .match(WORD) ?? []
  );
}

function range(from: number, to: number): number[] {
  return to < from ? [] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
