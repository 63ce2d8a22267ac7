import {
  CollectionPageLenient,
  SearchAnswerLenient,
  type SearchHitLenient,
  SearchRequest,
} from '@webdata/contract';
import { defer, type Observable } from 'rxjs';
import type { z } from 'zod';
import { RequestValidationError } from '../errors.js';
import { lastValueAbortable } from '../internal/abort.js';
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
 * Search over indexed collections, and the collections themselves.
 * Reached as `client.search(…)`, `client.searchAll(…)`, `client.collections.list()`.
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
        throw new RequestValidationError(
          `invalid search request: ${checked.error.issues[0]?.message ?? ''}`,
          checked.error.issues,
        );
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

  searchAll(body: Omit<SearchRequest, 'cursor'>, options: CallOptions = {}): PagedStream<SearchHit> {
    return new PagedStream((cursor) => this.search$({ ...body, cursor }), options.signal);
  }

  collections$(query: { limit?: number; cursor?: string } = {}): Observable<CollectionPage> {
    return this.#transport.json$({ method: 'GET', path: '/collections', query }, CollectionPageLenient);
  }
}
