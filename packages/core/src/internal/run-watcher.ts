import { LIMITS, RunLenient } from '@webdata/contract';
import {
  catchError,
  defer,
  EMPTY,
  finalize,
  map,
  merge,
  type Observable,
  type SchedulerLike,
  throwError,
} from 'rxjs';
import { BadRequestError, NotFoundError } from '../errors.js';
import { runSnapshotKey } from '../operators/distinctSnapshot.js';
import {
  type AdaptivePollPolicy,
  DEFAULT_POLL_POLICY,
  type PollAnswer,
  pollAdaptive,
} from '../operators/pollAdaptive.js';
import { shareLatest } from '../operators/shareLatest.js';
import { takeUntilTerminal } from '../operators/takeUntilTerminal.js';
import { type HttpResponse, parseBody, type Transport } from '../transport.js';
import { headerValue, parseRetryAfter } from './backoff.js';
import type { ServerCapabilities } from './capabilities.js';
import { segment } from './encode.js';
import { rideOutOutage } from './outage.js';
import { BatchUnsupportedError, RunFeed } from './run-feed.js';

/**
 * How runs are watched.
 *
 * @example
 * ```ts
 * createClient({ baseUrl, apiKey, poll: { initialMs: 500, maxMs: 10_000, longPollSeconds: 0 } });
 * ```
 */
export interface PollOptions extends Partial<AdaptivePollPolicy> {
  /** `?wait=` sent when the server supports long polls (default 20 s; 0 never long-polls). */
  longPollSeconds?: number | undefined;
  /**
   * Watched runs share one batched request stream (`GET /runs?ids=`, and the
   * batched long poll where the server has it), falling back to one poller per
   * run on a server without batches (default true; false: always one per run).
   */
  batch?: boolean | undefined;
  /**
   * Average least time between two batched long polls (default 200 ms): under
   * a storm of changes a watcher of any number of runs sends at most five a
   * second on average. The server answers a batched long poll on the first
   * change, and the next one goes out at once while turns are left (`burst`).
   */
  minIntervalMs?: number | undefined;
  /** Batched long polls that may go back to back after a quiet spell (default 3). */
  burst?: number | undefined;
  /** How long newly watched runs are gathered before they are read together (default 100 ms). */
  gatherMs?: number | undefined;
  /**
   * How long watching rides out a server that cannot be reached or answers
   * 5xx (a restart), trying again after 1, 2, 4, then every 5 s (or after the
   * server's `Retry-After`), before every watch errors with the last error
   * (default 60 s; 0: at once). Both batched and per-run watching; 4xx answers
   * (401, 404, 400) end a watch at once, and one-shot calls keep `retry`.
   */
  outageMs?: number | undefined;
}

/** What one run's poller remembers between requests. */
interface PollState {
  /** The last ETag the server sent, for `If-None-Match`. */
  value?: string | undefined;
  /** Whether the server has answered once (long polls start from the second request). */
  answered: boolean;
}

/** The server's hint for the next poll: `x-poll-after-ms`, else `Retry-After`. */
function pollHint(headers: HttpResponse['headers']): number | undefined {
  const raw = headerValue(headers, 'x-poll-after-ms');
  if (raw !== undefined && /^\d+$/.test(raw.trim())) return Number(raw);
  return parseRetryAfter(headers);
}

/**
 * Owns the watching of a client: one shared, ref-counted stream per run id
 * (so every subscriber to a run shares it, and a late one gets the latest
 * snapshot at once), all of them fed by one {@link RunFeed} (batched reads and
 * the batched long poll), or by a poller per run where the server cannot
 * read batches.
 */
export class RunWatcher {
  readonly #transport: Transport;
  readonly #capabilities: ServerCapabilities;
  readonly #policy: AdaptivePollPolicy;
  readonly #longPollSeconds: number;
  readonly #batch: boolean;
  readonly #scheduler: SchedulerLike | undefined;
  readonly #outageMs: number;
  readonly #feed: RunFeed;
  readonly #watches = new Map<string, Observable<RunLenient>>();

  constructor(
    transport: Transport,
    capabilities: ServerCapabilities,
    options: PollOptions = {},
    scheduler?: SchedulerLike,
  ) {
    this.#transport = transport;
    this.#capabilities = capabilities;
    const { longPollSeconds, batch, minIntervalMs, burst, gatherMs, outageMs, ...policy } = options;
    this.#policy = { ...DEFAULT_POLL_POLICY, ...policy };
    this.#longPollSeconds = Math.min(LIMITS.maxWaitSeconds, Math.max(0, longPollSeconds ?? 20));
    this.#batch = batch ?? true;
    this.#scheduler = scheduler;
    this.#outageMs = Math.max(0, outageMs ?? 60_000);
    this.#feed = new RunFeed(transport, capabilities, {
      longPollSeconds: this.#longPollSeconds,
      minIntervalMs: minIntervalMs ?? 200,
      burst: Math.max(1, burst ?? 3),
      gatherMs: gatherMs ?? 100,
      outageMs: this.#outageMs,
      policy: this.#policy,
    });
  }

  /** Number of runs with a live watch (for tests and diagnostics). */
  get activeWatches(): number {
    return this.#watches.size;
  }

  /** Distinct snapshots of one run until terminal (inclusive); shared per run id. */
  watch(runId: string): Observable<RunLenient> {
    const existing = this.#watches.get(runId);
    if (existing) return existing;
    const source$ = defer(() =>
      this.#batch && this.#capabilities.batch !== false
        ? this.#feed
            .watch(runId)
            .pipe(
              catchError((error: unknown) =>
                error instanceof BatchUnsupportedError ? this.#poll$(runId) : throwError(() => error),
              ),
            )
        : this.#poll$(runId),
    );
    const shared: Observable<RunLenient> = source$.pipe(
      finalize(() => {
        if (this.#watches.get(runId) === shared) this.#watches.delete(runId);
      }),
      shareLatest(),
    );
    this.#watches.set(runId, shared);
    return shared;
  }

  /**
   * Distinct snapshots of many runs, each until terminal; completes when all
   * are. The runs' watches are coalesced like any others: one batched stream.
   * With `deleted: 'skip'`, a run that is gone (404) ends its own watch only.
   */
  watchMany(runIds: readonly string[], options: { deleted?: 'error' | 'skip' } = {}): Observable<RunLenient> {
    const ids = [...new Set(runIds)];
    const watch = (id: string) =>
      options.deleted === 'skip'
        ? this.watch(id).pipe(
            catchError((error: unknown) =>
              error instanceof NotFoundError ? EMPTY : throwError(() => error),
            ),
          )
        : this.watch(id);
    return ids.length === 0 ? EMPTY : merge(...ids.map(watch));
  }

  #poll$(runId: string): Observable<RunLenient> {
    return defer(() => {
      const etag: PollState = { answered: false };
      // Each request rides out a restart on its own: the poll resumes where it was.
      const fetch$ = () =>
        rideOutOutage(this.#fetchRun$(runId, etag), {
          outageMs: this.#outageMs,
          scheduler: this.#scheduler,
          logger: this.#transport.logger,
        });
      return pollAdaptive(fetch$, {
        ...this.#policy,
        key: runSnapshotKey,
        scheduler: this.#scheduler,
      }).pipe(takeUntilTerminal());
    });
  }

  #fetchRun$(runId: string, etag: PollState): Observable<PollAnswer<RunLenient>> {
    // The first read is a plain one: a long poll without a version to compare
    // against may wait for the *next* change and skip the state we have not seen yet.
    const wait =
      etag.answered && this.#capabilities.longPoll !== false && this.#longPollSeconds > 0
        ? this.#longPollSeconds
        : undefined;
    return this.#transport
      .send$({
        method: 'GET',
        path: `/runs/${segment(runId)}`,
        query: { wait },
        headers: etag.value ? { 'if-none-match': etag.value } : undefined,
        allowNotModified: true,
        longPoll: wait !== undefined,
        timeoutMs: wait === undefined ? undefined : 60_000 + wait * 1000,
      })
      .pipe(
        map((response): PollAnswer<RunLenient> => {
          const honoured = headerValue(response.headers, 'x-webdata-wait') !== undefined;
          if (wait !== undefined && this.#capabilities.longPoll === undefined) {
            this.#capabilities.longPoll = honoured;
            if (!honoured) this.#transport.logger.debug?.('webdata: ?wait= not honoured, polling without it');
          }
          const newEtag = headerValue(response.headers, 'etag');
          if (newEtag) etag.value = newEtag;
          etag.answered = true;
          return {
            value: response.status === 304 ? undefined : parseBody(response, RunLenient),
            hintMs: pollHint(response.headers),
            longPolled: wait !== undefined && honoured,
            // After the first, plain read the next request long-polls (if the server may support it).
            immediate:
              wait === undefined && this.#capabilities.longPoll !== false && this.#longPollSeconds > 0,
          };
        }),
        catchError((error: unknown) => {
          // A strict foreign server may refuse the unknown `wait` parameter.
          if (
            wait !== undefined &&
            error instanceof BadRequestError &&
            this.#capabilities.longPoll !== true
          ) {
            this.#capabilities.longPoll = false;
            return this.#fetchRun$(runId, etag);
          }
          return throwError(() => error);
        }),
      );
  }
}
