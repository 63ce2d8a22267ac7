import { SNIPPET_CLOSE, SNIPPET_ELLIPSIS, SNIPPET_OPEN } from '../store/sqlite/search/index.js';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Turns a raw FTS5 snippet (matches between control-character markers) into
 * safe HTML: the page text is escaped first, then the markers become
 * `<mark>`/`</mark>` and `…`, so text from a crawled page can never inject
 * markup. Runs of whitespace (line breaks of the body) become one space.
 */
export function snippetToHtml(raw: string): string {
  const escaped = escapeHtml(raw.replace(/\s+/g, ' ').trim());
  return escaped
    .replaceAll(SNIPPET_OPEN, '<mark>')
    .replaceAll(SNIPPET_CLOSE, '</mark>')
    .replaceAll(SNIPPET_ELLIPSIS, '…')
    .replace(/<\/mark>(\s*)<mark>/g, '$1');
}
