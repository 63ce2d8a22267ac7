/**
 * A URL found in a text: its normalised form (`new URL(…).href`) and where it
 * was written, as offsets into the text (`end` exclusive).
 */
export interface FoundUrl {
  url: string;
  start: number;
  end: number;
}

// A candidate runs from the scheme to the first character that cannot be part
// of a URL written in prose, Markdown, HTML, JSON or CSV: whitespace, quotes,
// angle brackets, backticks and the characters RFC 3986 never allows unescaped.
const CANDIDATE = /\bhttps?:\/\/[^\s"'<>`{}|\\^]+/gi;
// Punctuation that ends a sentence or a Markdown emphasis more often than a URL.
const TRAILING = /[.,;:!?*_~]+$/;
// In CSV or a comma-separated list, a comma directly followed by another URL separates two.
const NEXT_URL = /,(?=https?:\/\/)/i;
const HTML_ENTITY = /&(amp|#38|#x26);/gi;

/**
 * Finds the http(s) URLs written in a text (Markdown, HTML, JSON, CSV or prose),
 * in order of appearance, duplicates included. Trailing punctuation, a closing
 * bracket that has no opening one inside the URL (Markdown links, parentheses)
 * and HTML's `&amp;` are handled; anything `new URL` rejects is skipped.
 *
 * @example
 * ```ts
 * findUrls('See [the docs](https://example.org/docs).').map((u) => u.url); // ['https://example.org/docs']
 * ```
 */
export function findUrls(text: string): FoundUrl[] {
  const found: FoundUrl[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    let offset = match.index;
    for (const piece of match[0].split(NEXT_URL)) {
      const written = trimEnd(piece);
      const url = normalise(written);
      if (url) found.push({ url, start: offset, end: offset + written.length });
      offset += piece.length + 1;
    }
  }
  return found;
}

/**
 * The distinct URLs of a text, in order of first appearance.
 *
 * @example
 * ```ts
 * uniqueUrls('https://a.example/ and https://a.example again'); // ['https://a.example/']
 * ```
 */
export function uniqueUrls(text: string): string[] {
  return [...new Set(findUrls(text).map((found) => found.url))];
}

/** Drops what ends the sentence rather than the URL, repeatedly: `(see https://x.org/a).` → `https://x.org/a`. */
function trimEnd(candidate: string): string {
  let url = candidate;
  for (;;) {
    const before = url;
    url = url.replace(TRAILING, '');
    for (const [open, close] of [
      ['(', ')'],
      ['[', ']'],
    ] as const) {
      if (url.endsWith(close) && count(url, close) > count(url, open)) url = url.slice(0, -1);
    }
    if (url === before) return url;
  }
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

function normalise(written: string): string | undefined {
  try {
    const url = new URL(written.replace(HTML_ENTITY, '&'));
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}
