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
 * The one outage budget of a watch, whichever way it watches (the batched run
 * feed or a poller per run): an outage begins at the first {@link isOutage}
 * error after an answer, and lasts until the server answers again (any
 * answer, a 4xx too: the server is up). While it has lasted less than
 * `outageMs` the watch tries again after {@link outageDelayMs}; after that the
 * error goes through. A turn of the feed's loop that sent nothing (gathering
 * newly watched runs, a long poll given up for them) is not an answer, so
 * watching new runs during an outage does not make it start over.
 */
export class OutageBudget {
  readonly #outageMs: number;
  readonly #now: () => number;
  readonly #logger: Logger | undefined;
  /** When the current outage began (undefined: the last request got an answer). */
  #since: number | undefined;
  /** Tries since the current outage began. */
  #tries = 0;

  constructor(options: { outageMs: number; now?: (() => number) | undefined; logger?: Logger | undefined }) {
    this.#outageMs = Math.max(0, options.outageMs);
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger;
  }

  /**
   * The wait before trying again after `error`, or undefined when the watch
   * should end with it: not an outage error, or the outage has outlasted
   * `outageMs`. `context` goes into the warning logged for each try.
   */
  retryDelayMs(error: unknown, context: Record<string, unknown> = {}): number | undefined {
    if (!isOutage(error)) return undefined;
    const now = this.#now();
    this.#since ??= now;
    if (now - this.#since >= this.#outageMs) return undefined;
    this.#tries++;
    this.#logger?.warn?.('webdata: the server is unreachable or failing; still watching', {
      ...context,
      error: error instanceof Error ? error.message : String(error),
    });
    return outageDelayMs(this.#tries, error);
  }

  /** The server answered (or the watches ended): the next outage gets the whole budget. */
  reset(): void {
    this.#since = undefined;
    this.#tries = 0;
  }
}

/**
 * Re-subscribes `source$` (one request of a watch) while it fails with an
 * {@link isOutage} error, backing off with {@link outageDelayMs}, until the
 * outage has lasted `outageMs` (0: never): then the last error goes through.
 * Any other error goes through at once. Counted by an {@link OutageBudget},
 * as the batched run feed counts its own.
 */
export function rideOutOutage<T>(
  source$: Observable<T>,
  options: { outageMs: number; scheduler?: SchedulerLike | undefined; logger?: Logger | undefined },
): Observable<T> {
  return defer(() => {
    // One request's outage: it ends with the request's answer, which completes this stream.
    const budget = new OutageBudget({
      outageMs: options.outageMs,
      now: () => options.scheduler?.now() ?? Date.now(),
      logger: options.logger,
    });
    return source$.pipe(
      retry({
        delay: (error: unknown) => {
          const delayMs = budget.retryDelayMs(error);
          if (delayMs === undefined) throw error;
          return timer(delayMs, options.scheduler);
        },
      }),
    );
  });
}
