import { type SnippetPart, snippetParts } from '@webdata/core';

/** Words of a passage: runs of letters and digits (Markdown's marks and links fall between them). */
const WORD = /[\p{L}\p{N}]+/gu;
/** How many of the snippet's words must follow one another in the page to count as its place. */
const WINDOW = 6;

/**
 * Where a search hit's passage is in its page's text: the offsets of the
 * first run of the snippet's words (six, or all when fewer, from its first
 * matched word, `<mark>`, or ending with the snippet), found in the text with anything but letters and digits between
 * them, since the page is Markdown (`**`, links, line breaks) and the
 * snippet plain text. Other runs of the snippet are tried when that one is
 * not found; `undefined` when none is.
 *
 * @example
 * ```ts
 * passageOffsets('# Lamp\n\nHandmade, **shipped** in two days.', 'Lamp … Handmade, <mark>shipped</mark> in two days');
 * // { start: 18, end: 42 }: 'shipped** in two days'
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
    const pattern = words
      .slice(start, start + length)
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^\\p{L}\\p{N}]+');
    const match = new RegExp(pattern, 'u').exec(text);
    if (match) return { start: match.index, end: match.index + match[0].length };
  }
  return undefined;
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
