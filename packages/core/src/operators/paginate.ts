import {
  defer,
  EMPTY,
  expand,
  finalize,
  from,
  type Observable,
  type ObservableInput,
  throwError,
} from 'rxjs';
import { WebDataError } from '../errors.js';

/**
 * The part of a page {@link paginate} needs: its cursor to the next page.
 *
 * @example
 * ```ts
 * const last: CursorPage = { next_cursor: null };
 * ```
 */
export interface CursorPage {
  next_cursor?: string | null | undefined;
}

/**
 * Emits the pages of a cursor-paginated list one after the other, fetching
 * the next page only once the previous one was emitted (`expand`), and none
 * after the subscriber has left: unsubscribing after the first page means
 * the second is never requested. A server that hands out the same cursor
 * twice errors the stream instead of looping forever.
 *
 * @example
 * ```ts
 * import { concatMap } from 'rxjs';
 * import { paginate } from '@webdata/core';
 *
 * const results$ = paginate((cursor) => client.runs.resultsPage(id, { cursor })).pipe(
 *   concatMap((page) => page.data),
 * );
 * ```
 */
export function paginate<P extends CursorPage>(
  fetchPage: (cursor: string | undefined) => ObservableInput<P>,
): Observable<P> {
  return defer(() => {
    const seen = new Set<string>();
    // expand asks for the next page right after emitting one; if that emission
    // made the subscriber leave (take, first), `left` is already true by then.
    let left = false;
    return from(fetchPage(undefined)).pipe(
      expand((page) => {
        const cursor = page.next_cursor;
        if (left || cursor === null || cursor === undefined || cursor === '') return EMPTY;
        if (seen.has(cursor)) {
          return throwError(
            () =>
              new WebDataError(`the server returned cursor ${cursor} twice`, { code: 'invalid_response' }),
          );
        }
        seen.add(cursor);
        return fetchPage(cursor);
      }, 1),
      finalize(() => {
        left = true;
      }),
    );
  });
}
