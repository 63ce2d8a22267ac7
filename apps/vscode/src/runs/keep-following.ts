import { asyncScheduler, defer, type Observable, retry, type SchedulerLike, throwError, timer } from 'rxjs';
import { stateAfter } from '../connection/connection-state.js';

/** Before watching a followed run again once its watch gave up on a service that does not answer. */
export const FOLLOW_RETRY_MS = 5_000;

/**
 * The snapshots of a run this window follows, watched again (after
 * `retryMs`) whenever the watch gives up because the service does not answer:
 * the client's watch rides out a minute of outage, then errors, while the run
 * goes on at the service, which may come back (a restart, a laptop waking, a
 * network back). `onOutage` is told each time, to say so. Any other error (the
 * key refused, the run deleted) ends the following as before.
 *
 * Why: a service down for more than a minute mid-run ended the progress
 * notification with "Lost track of run …", and when it came back and finished
 * the run, the Runs view showed it done but nothing said so, nor offered its results.
 *
 * @example
 * ```ts
 * keepFollowing(() => client.runs.watch(id), { onOutage: () => progress.report({ message: 'still trying…' }) });
 * ```
 */
export function keepFollowing<T>(
  watch: () => Observable<T>,
  options: { onOutage: (error: unknown) => void; retryMs?: number; scheduler?: SchedulerLike },
): Observable<T> {
  return defer(watch).pipe(
    retry({
      delay: (error: unknown) => {
        if (stateAfter(error) !== 'unreachable') return throwError(() => error);
        options.onOutage(error);
        return timer(options.retryMs ?? FOLLOW_RETRY_MS, options.scheduler ?? asyncScheduler);
      },
    }),
  );
}
