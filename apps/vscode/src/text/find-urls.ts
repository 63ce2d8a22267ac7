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

/**
 * The URL a command acting on one page should start from, given the text and the cursor's offset
 * in it: the URL the cursor is in, else the first on the cursor's line, else the first of the text.
 * Deep crawl from URL… offered the file's first URL whatever line the cursor was on.
 *
 * @example
 * ```ts
 * const text = 'a: https://a.example/\nb: https://b.example/';
 * urlNearest(text, text.indexOf('b:')); // 'https://b.example/'
 * ```
 */
export function urlNearest(text: string, offset: number): string | undefined {
  const found = findUrls(text);
  const inside = found.find((url) => url.start <= offset && offset <= url.end);
  if (inside) return inside.url;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const next = text.indexOf('\n', offset);
  const lineEnd = next === -1 ? text.length : next;
  const onLine = found.find((url) => url.start >= lineStart && url.start < lineEnd);
  return (onLine ?? found[0])?.url;
}

// A host as people type it without a scheme: a name with a dot (or localhost, or an IPv4
// address), an optional port, then an optional path, query or fragment.
const BARE_HOST =
  /^(?:localhost|(?:\d{1,3}\.){3}\d{1,3}|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9])(?::\d{1,5})?(?:[/?#]\S*)?$/i;
const LOOPBACK_OR_PRIVATE = /^(?:localhost|127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.)/i;

/**
 * The URLs a person typed or pasted (separated by spaces, commas or lines), as {@link uniqueUrls}
 * finds them, also when written without a scheme, as a browser's address bar takes them:
 * `docs.python.org/3/` is `https://docs.python.org/3/`, and `localhost:8000/a` (or a private
 * address) is `http://localhost:8000/a`, as a browser tries it. Words that are not an address
 * are left out. "docs.python.org/3/library" was refused with "no http(s) URL in this".
 *
 * @example
 * ```ts
 * typedUrls('docs.python.org/3/ https://a.example/x'); // ['https://docs.python.org/3/', 'https://a.example/x']
 * ```
 */
export function typedUrls(typed: string): string[] {
  const urls: string[] = [];
  for (const word of typed.split(/[\s,]+/)) {
    if (word === '') continue;
    if (/^https?:\/\//i.test(word)) {
      urls.push(...uniqueUrls(word));
      continue;
    }
    const bare = trimEnd(word);
    if (!BARE_HOST.test(bare)) continue;
    const url = normalise(`${LOOPBACK_OR_PRIVATE.test(bare) ? 'http' : 'https'}://${bare}`);
    if (url) urls.push(url);
  }
  return [...new Set(urls)];
}
