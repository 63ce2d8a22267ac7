import type { RunLenient } from '@webdata/contract';
import { Observable } from 'rxjs';
import { WebDataError } from './errors.js';
import { lastValueAbortable } from './internal/abort.js';
import type { RunEvent, RunOutcome, RunResult } from './run-events.js';

/**
 * The type of a run stream's result data: `T` of `RunEvent<T>`. Read from the
 * whole event type (rather than inferred as `T` by `collectRun`) so that a
 * stream passed through operators (`run$.pipe(retry())`) keeps its type.
 *
 * @example
 * ```ts
 * type Data = ResultDataOf<RunEvent<{ price: number }>>; // { price: number }
 * ```
 */
export type ResultDataOf<E> = E extends { type: 'result'; result: RunResult<infer T> } ? T : never;

/**
 * The promise twin of a run stream: subscribes, collects every result, and
 * resolves with the terminal run and the results once the stream completes
 * (rejecting with its error: `RunFailedError`, `RunTimeoutError`, …).
 *
 * @example
 * ```ts
 * import { collectRun } from '@webdata/core';
 *
 * const { run, results } = await collectRun(client.crawl({ urls: ['https://example.org/'] }));
 * console.log(run.status, results.length);
 * const again = await collectRun(client.crawl({ urls }).pipe(retry(2))); // typed through pipe too
 * ```
 */
export function collectRun<E extends RunEvent<unknown>>(
  events$: Observable<E>,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<RunOutcome<ResultDataOf<E>>> {
  type T = ResultDataOf<E>;
  const outcome: { run?: RunLenient } & Omit<RunOutcome<T>, 'run'> = { results: [], invalidResults: [] };
  const collector = new Observable<RunOutcome<T>>((subscriber) =>
    events$.subscribe({
      next: (event) => {
        if (event.type === 'created' || event.type === 'status' || event.type === 'completed')
          outcome.run = event.run;
        else if (event.type === 'result') outcome.results.push(event.result as RunResult<T>);
        else outcome.invalidResults.push({ result: event.result, error: event.error });
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        if (!outcome.run)
          subscriber.error(new WebDataError('the run stream ended without a run', { code: 'stream_ended' }));
        else {
          subscriber.next({ ...outcome, run: outcome.run });
          subscriber.complete();
        }
      },
    }),
  );
  return lastValueAbortable(collector, options.signal);
}
