import { defer, type Observable, retry, type SchedulerLike, timer } from 'rxjs';
import { ApiError, ConnectionError, InternalServerError, TimeoutError } from '../errors.js';
import type { Logger } from '../transport.js';

/**
 * Errors of a server that is down or restarting (refused or reset connection,
 * time-out, 5xx such as a draining server's 503): worth watching on through,
 * for a while. 4xx answers (401, 404, 400) are not: they end a watch at once.
 */
export function isOutage(error: unknown): boolean {
  return (
    error instanceof ConnectionError || error instanceof TimeoutError || error instanceof InternalServerError
  );
}

/** Longest wait between two tries, even when the server asks for more (`Retry-After`). */
const MAX_OUTAGE_DELAY_MS = 30_000;

/**
 * Wait before outage try number `tries` (1-based): 1 s, 2 s, 4 s, then every
 * 5 s, so a restarted server is found again within seconds; never sooner than
 * the server's `Retry-After` (a draining server says when to come back).
 */
export function outageDelayMs(tries: number, error: unknown): number {
  const step = Math.min(5_000, 1_000 * 2 ** Math.max(0, tries - 1));
  const asked = error instanceof ApiError ? error.retryAfterMs : undefined;
  return asked !== undefined && Number.isFinite(asked) && asked > step
    ? Math.min(asked, MAX_OUTAGE_DELAY_MS)
    : step;
}

/**
 * Re-subscribes `source$` (one request of a watch) while it fails with an
 * {@link isOutage} error, backing off with {@link outageDelayMs}, until the
 * outage has lasted `outageMs` (0: never): then the last error goes through.
 * Any other error goes through at once.
 */
export function rideOutOutage<T>(
  source$: Observable<T>,
  options: { outageMs: number; scheduler?: SchedulerLike | undefined; logger?: Logger | undefined },
): Observable<T> {
  return defer(() => {
    const now = () => options.scheduler?.now() ?? Date.now();
    let since: number | undefined;
    let tries = 0;
    return source$.pipe(
      retry({
        delay: (error: unknown) => {
          if (!isOutage(error)) throw error;
          since ??= now();
          if (now() - since >= options.outageMs) throw error;
          tries++;
          options.logger?.warn?.('webdata: the server is unreachable or failing; still watching', {
            error: error instanceof Error ? error.message : String(error),
          });
          return timer(outageDelayMs(tries, error), options.scheduler);
        },
      }),
    );
  });
}
