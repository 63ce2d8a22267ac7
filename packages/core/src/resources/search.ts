import {
  CollectionPageLenient,
  type DocumentContentFormat,
  DocumentContentLenient,
  SearchAnswerLenient,
  type SearchHitLenient,
  SearchRequest,
} from '@webdata/contract';
import { defer, type Observable } from 'rxjs';
import type { z } from 'zod';
import { RequestValidationError } from '../errors.js';
import { lastValueAbortable } from '../internal/abort.js';
import { segment } from '../internal/encode.js';
import { pageSizeOf } from '../internal/page-size.js';
import { PagedStream } from '../paged-stream.js';
import type { Transport } from '../transport.js';
import type { CallOptions } from './runs.js';

/**
 * A search hit, read leniently.
 *
 * @example
 * ```ts
 * for await (const hit of client.searchAll({ query: 'install' })) console.log((hit satisfies SearchHit).url);
 * ```
 */
export type SearchHit = z.infer<typeof SearchHitLenient>;
/**
 * A page of collections.
 *
 * @example
 * ```ts
 * const { data }: CollectionPage = await client.collections.list();
 * ```
 */
export type CollectionPage = z.infer<typeof CollectionPageLenient>;

/**
 * The full content of an indexed document (what a search hit names), read
 * leniently: `content` is a string; `format` says which one the server sent.
 *
 * @example
 * ```ts
 * const { title, content }: DocumentContent = await client.collections.document('docs', hit.document_id);
 * ```
 */
export type DocumentContent = z.infer<typeof DocumentContentLenient>;

/**
 * Options of {@link Search.document$}.
 *
 * @example
 * ```ts
 * await client.collections.document('docs', id, { format: 'text' });
 * ```
 */
export interface DocumentOptions {
  /** `markdown` or `text`; without it, the server's choice (Markdown when it has it, else text). */
  format?: DocumentContentFormat | undefined;
}

/**
 * What {@link Search.searchAll} searches: a {@link SearchRequest} without its
 * cursor, and the size of each page it asks for.
 *
 * @example
 * ```ts
 * const request: SearchAllRequest = { query: 'retry policy', collection: 'docs', pageSize: 50 };
 * ```
 */
export interface SearchAllRequest extends Omit<SearchRequest, 'cursor' | 'limit'> {
  /** Hits a request (1–100, default 10); every hit is listed whatever it is. */
  pageSize?: number | undefined;
  /**
   * Older name of {@link pageSize}: the size of each page, not how many hits are listed.
   * @deprecated use `pageSize`.
   */
  limit?: number | undefined;
}

/**
 * Search over indexed collections, and the collections themselves with their
 * documents. Reached as `client.search(…)`, `client.searchAll(…)`,
 * `client.collections.list()`, `client.collections.document(…)`.
 */
export class Search {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  search$(body: SearchRequest): Observable<SearchAnswerLenient> {
    return defer(() => {
      const checked = SearchRequest.safeParse(body);
      if (!checked.success) {
        throw RequestValidationError.of('search', checked.error.issues);
      }
      // Search reads and changes nothing: safe to retry like a GET.
      return this.#transport.json$(
        { method: 'POST', path: '/search', body, retry: 'safe' },
        SearchAnswerLenient,
      );
    });
  }

  search(body: SearchRequest, options: CallOptions = {}): Promise<SearchAnswerLenient> {
    return lastValueAbortable(this.search$(body), options.signal);
  }

  searchAll(body: SearchAllRequest, options: CallOptions = {}): PagedStream<SearchHit> {
    const { pageSize, limit, ...request } = body;
    const size = pageSizeOf('search', SearchRequest.shape.limit, pageSize ?? limit);
    return new PagedStream(
      (cursor) => (typeof size === 'number' ? this.search$({ ...request, limit: size, cursor }) : size),
      options.signal,
    );
  }

  collections$(query: { limit?: number; cursor?: string } = {}): Observable<CollectionPage> {
    return this.#transport.json$({ method: 'GET', path: '/collections', query }, CollectionPageLenient);
  }

  /** The full content of the document `documentId` (a search hit's `document_id`) of `collection`. */
  document$(
    collection: string,
    documentId: string,
    options: DocumentOptions = {},
  ): Observable<DocumentContent> {
    return this.#transport.json$(
      {
        method: 'GET',
        path: `/collections/${segment(collection)}/documents/${segment(documentId)}`,
        query: { format: options.format },
      },
      DocumentContentLenient,
    );
  }
}
