import { z } from 'zod';
import { CollectionName, HttpUrl, prefixedId, Timestamp } from './common.js';

/**
 * Formats an indexed document's content is served in: `text`, the plain text
 * the collection indexed (always there), and `markdown`, the page as the run
 * that indexed it last stored it (there when that run asked for Markdown, a
 * crawl's default).
 */
export const DocumentContentFormat = z.enum(['markdown', 'text']);
export type DocumentContentFormat = z.infer<typeof DocumentContentFormat>;

/**
 * Path parameters naming an indexed document: its collection and the
 * `document_id` of a search hit. The id is not checked for its shape, so an
 * id that names nothing answers 404 like any unknown one.
 */
export const DocumentPathParams = z.strictObject({
  collection: CollectionName,
  documentId: z.string().min(1).max(128),
});
export type DocumentPathParams = z.infer<typeof DocumentPathParams>;

/** `GET …/documents/{documentId}` query. Without `format`: Markdown when stored, else text. */
export const DocumentContentQuery = z.strictObject({
  format: DocumentContentFormat.optional().meta({
    description: 'Without it: `markdown` when the indexing run stored it, else `text`',
  }),
});
export type DocumentContentQuery = z.infer<typeof DocumentContentQuery>;

/**
 * The full content of one indexed document (what a search hit points at), in
 * one format, with the facts a search hit carries about it.
 *
 * @example
 * ```ts
 * // GET /api/v1/collections/docs/documents/doc_…?format=markdown
 * const { title, content } = DocumentContent.parse(await response.json());
 * ```
 */
export const DocumentContent = z
  .strictObject({
    id: prefixedId('doc'),
    collection: CollectionName,
    url: HttpUrl,
    title: z.string().nullable(),
    format: DocumentContentFormat,
    content: z.string(),
    indexed_at: Timestamp,
  })
  .meta({ id: 'DocumentContent' });
export type DocumentContent = z.infer<typeof DocumentContent>;

/** A document's content as a client reads it from any server: only `content` required, unknown fields kept. */
export const DocumentContentLenient = z.looseObject({
  id: z.string().optional(),
  collection: z.string().optional(),
  url: z.string().optional(),
  title: z.string().nullable().optional(),
  format: z.string().optional(),
  content: z.string(),
  indexed_at: z.string().optional(),
});
export type DocumentContentLenient = z.infer<typeof DocumentContentLenient>;
