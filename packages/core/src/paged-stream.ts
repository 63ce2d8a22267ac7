import { concatMap, type Observable, Observable as RxObservable } from 'rxjs';
import { WebDataError } from './errors.js';
import { abortError, lastValueAbortable } from './internal/abort.js';
import { type CursorPage, paginate } from './operators/paginate.js';

/**
 * A page as a {@link PagedStream} reads it.
 *
 * @example
 * ```ts
 * const page: ItemPage<number> = { data: [1, 2, 3], next_cursor: 'c2' };
 * ```
 */
export interface ItemPage<T> extends CursorPage {
  data: T[];
}

/**
 * Every item of a cursor-paginated list, fetched lazily page by page. It is
 * an `Observable` (subscribe, pipe, and unsubscribing stops further page
 * requests) and an `AsyncIterable` (`for await`, where a `break` stops them
 * too). Pages are requested only as items are consumed.
 *
 * @example
 * ```ts
 * for await (const result of client.runs.results(runId)) {
 *   console.log(result.url);
 *   if (result.status === 'failed') break; // no further page is requested
 * }
 * const all = await client.runs.results(runId).toArray();
 * ```
 */
export class PagedStream<T> extends RxObservable<T> implements AsyncIterable<T> {
  readonly #fetchPage: (cursor: string | undefined) => Observable<ItemPage<T>>;
  readonly #signal: AbortSignal | undefined;

  constructor(fetchPage: (cursor: string | undefined) => Observable<ItemPage<T>>, signal?: AbortSignal) {
    super((subscriber) =>
      paginate(fetchPage)
        .pipe(concatMap((page) => page.data))
        .subscribe(subscriber),
    );
    this.#fetchPage = fetchPage;
    this.#signal = signal;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await lastValueAbortable(this.#fetchPage(cursor), this.#signal);
      for (const item of page.data) {
        // The rest of a page already read is not handed out once the caller aborted.
        if (this.#signal?.aborted) throw abortError(this.#signal);
        yield item;
      }
      cursor = page.next_cursor ?? undefined;
      if (cursor !== undefined) {
        if (seen.has(cursor))
          throw new WebDataError(`the server returned cursor ${cursor} twice`, { code: 'invalid_response' });
        seen.add(cursor);
      }
    } while (cursor);
  }

  /** Every item, all pages read. */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
