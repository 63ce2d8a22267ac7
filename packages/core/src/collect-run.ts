import type { RunLenient } from '@webdata/contract';
import { Observable } from 'rxjs';
import { WebDataError } from './errors.js';
import { lastValueAbortable } from './internal/abort.js';
import type { RunEvent, RunOutcome } from './run-events.js';

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
 * ```
 */
export function collectRun<T>(
  events$: Observable<RunEvent<T>>,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<RunOutcome<T>> {
  const outcome: { run?: RunLenient } & Omit<RunOutcome<T>, 'run'> = { results: [], invalidResults: [] };
  const collector = new Observable<RunOutcome<T>>((subscriber) =>
    events$.subscribe({
      next: (event) => {
        if (event.type === 'created' || event.type === 'status' || event.type === 'completed')
          outcome.run = event.run;
        else if (event.type === 'result') outcome.results.push(event.result);
        else outcome.invalidResults.push({ result: event.result, error: event.error });
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        if (!outcome.run) subscriber.error(new WebDataError('the run stream ended without a run'));
        else {
          subscriber.next({ ...outcome, run: outcome.run });
          subscriber.complete();
        }
      },
    }),
  );
  return lastValueAbortable(collector, options.signal);
}
