import { decodeHTML } from 'entities';

/** One run of a search hit's snippet: page text, and whether the service marked it as matching the query. */
export interface SnippetPart {
  /** The text as the page has it (entities decoded, tags other than `<mark>` left out). */
  readonly text: string;
  /** `true` for text the service put in `<mark>`. */
  readonly match: boolean;
}

const MARK = /<mark\b[^>]*>([\s\S]*?)<\/mark\s*>/gi;
const TAG = /<[^>]*>/g;

/**
 * A search hit's `snippet` (HTML: the page's text escaped, the matched words
 * in `<mark>`) as runs of plain text, in order. Every HTML entity is decoded,
 * not only the five our server writes, since a foreign server may send
 * `&nbsp;` or `&#x27;`; tags other than `<mark>` are dropped. Decoding comes
 * after splitting, so an escaped `&lt;mark&gt;` in a page stays text.
 *
 * @example
 * ```ts
 * snippetParts('the &quot;<mark>index</mark>&quot;');
 * // [{ text: 'the "', match: false }, { text: 'index', match: true }, { text: '"', match: false }]
 * ```
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const push = (html: string, match: boolean) => {
    const text = decodeHTML(html.replace(TAG, ''));
    if (text !== '') parts.push({ text, match });
  };
  let from = 0;
  for (const found of snippet.matchAll(MARK)) {
    push(snippet.slice(from, found.index), false);
    push(found[1] ?? '', true);
    from = found.index + found[0].length;
  }
  push(snippet.slice(from), false);
  return parts;
}

/** A search hit's `snippet` as plain text: {@link snippetParts} joined, the marks left out. */
export function snippetText(snippet: string): string {
  return snippetParts(snippet)
    .map((part) => part.text)
    .join('');
}
