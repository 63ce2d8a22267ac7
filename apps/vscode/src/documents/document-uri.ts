import { safeTitle, type UriParts } from './result-uri.js';

/** The URI scheme of indexed documents (the whole page a search hit names). */
export const DOCUMENT_SCHEME = 'webdata-document';

/** Formats a document can be asked for, and the file extension that picks its language. */
export const DOCUMENT_FORMATS = { markdown: 'md', text: 'txt' } as const;
export type DocumentFormat = keyof typeof DOCUMENT_FORMATS;

/** What a document tab shows: one document of a collection, under a title. */
export interface DocumentRef {
  collection: string;
  documentId: string;
  /** The format to ask for; without it, the service's choice (Markdown when it has it, else text). */
  format?: DocumentFormat | undefined;
  /** Shown as the tab's title; not needed to fetch the content. */
  title: string;
}

/**
 * The URI of a document tab:
 * `webdata-document:/<collection>/<documentId>/<title>.md[?format=<format>]`.
 * As for results ({@link toResultUri}), the title is the last path segment
 * (the tab's name, its extension the language: Markdown unless `text` is
 * asked for), and the same document always gets the same URI, so choosing
 * it again focuses the tab already open.
 *
 * @example
 * ```ts
 * toDocumentUri({ collection: 'docs', documentId: 'doc_7', title: 'Retries' });
 * // { scheme: 'webdata-document', path: '/docs/doc_7/Retries.md', query: '' }
 * ```
 */
export function toDocumentUri(ref: DocumentRef): UriParts {
  const name = `${safeTitle(ref.title) || ref.documentId}.${DOCUMENT_FORMATS[ref.format ?? 'markdown']}`;
  return {
    scheme: DOCUMENT_SCHEME,
    path: `/${encodeURIComponent(ref.collection)}/${encodeURIComponent(ref.documentId)}/${name}`,
    query: ref.format === undefined ? '' : `format=${ref.format}`,
  };
}

/**
 * Reads a document tab's URI back; `undefined` when it is not one.
 *
 * @example
 * ```ts
 * fromDocumentUri({ scheme: 'webdata-document', path: '/docs/doc_7/Retries.txt', query: 'format=text' });
 * // { collection: 'docs', documentId: 'doc_7', format: 'text', title: 'Retries' }
 * ```
 */
export function fromDocumentUri(uri: UriParts): DocumentRef | undefined {
  if (uri.scheme !== DOCUMENT_SCHEME) return undefined;
  const match = /^\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri.path);
  if (!match) return undefined;
  const format = new URLSearchParams(uri.query).get('format');
  if (format !== null && !Object.hasOwn(DOCUMENT_FORMATS, format)) return undefined;
  const [, collection, documentId, name] = match as unknown as [string, string, string, string];
  try {
    return {
      collection: decodeURIComponent(collection),
      documentId: decodeURIComponent(documentId),
      ...(format === null ? {} : { format: format as DocumentFormat }),
      title: name.replace(/\.[a-z]+$/, ''),
    };
  } catch {
    return undefined;
  }
}
