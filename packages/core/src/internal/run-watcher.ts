import { isTerminalStatus, LIMITS, RunLenient, RunPageLenient } from '@webdata/contract';
import {
  catchError,
  defer,
  filter,
  finalize,
  forkJoin,
  map,
  merge,
  mergeMap,
  type Observable,
  type SchedulerLike,
  takeWhile,
  tap,
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
  /** `watchMany` reads runs in batches with `GET /runs?ids=` when the server supports it (default true). */
  batch?: boolean | undefined;
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
 * Owns the pollers of a client: one shared, ref-counted poller per run id
 * (so every subscriber to a run shares one request stream), batched polling
 * for many runs, and the capability probing behind both.
 */
export class RunWatcher {
  readonly #transport: Transport;
  readonly #capabilities: ServerCapabilities;
  readonly #policy: AdaptivePollPolicy;
  readonly #longPollSeconds: number;
  readonly #batch: boolean;
  readonly #scheduler: SchedulerLike | undefined;
  readonly #watches = new Map<string, Observable<RunLenient>>();

  constructor(
    transport: Transport,
    capabilities: ServerCapabilities,
    options: PollOptions = {},
    scheduler?: SchedulerLike,
  ) {
    this.#transport = transport;
    this.#capabilities = capabilities;
    const { longPollSeconds, batch, ...policy } = options;
    this.#policy = { ...DEFAULT_POLL_POLICY, ...policy };
    this.#longPollSeconds = Math.min(LIMITS.maxWaitSeconds, Math.max(0, longPollSeconds ?? 20));
    this.#batch = batch ?? true;
    this.#scheduler = scheduler;
  }

  /** Number of runs with a live poller (for tests and diagnostics). */
  get activeWatches(): number {
    return this.#watches.size;
  }

  /** Distinct snapshots of one run until terminal (inclusive); shared per run id. */
  watch(runId: string): Observable<RunLenient> {
    const existing = this.#watches.get(runId);
    if (existing) return existing;
    const shared: Observable<RunLenient> = this.#poll$(runId).pipe(
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
   * are. Batched into `GET /runs?ids=` (100 ids a request), falling back to
   * one poller per run, remembered, when the server does not support it.
   */
  watchMany(runIds: readonly string[]): Observable<RunLenient> {
    const ids = [...new Set(runIds)];
    if (ids.length === 0) return defer(() => []);
    const perRun$ = () => merge(...ids.map((id) => this.watch(id)));
    if (!this.#batch || this.#capabilities.batch === false || ids.length === 1) return perRun$();
    return defer(() => {
      const pending = new Set(ids);
      const lastKeys = new Map<string, string>();
      return pollAdaptive(() => this.#fetchBatch$([...pending]), {
        ...this.#policy,
        key: (runs) => runs.map(runSnapshotKey).join('\n'),
        scheduler: this.#scheduler,
      }).pipe(
        mergeMap((runs) => runs),
        filter((run) => {
          if (!pending.has(run.id)) return false;
          const key = runSnapshotKey(run);
          if (lastKeys.get(run.id) === key) return false;
          lastKeys.set(run.id, key);
          return true;
        }),
        tap((run) => {
          if (isTerminalStatus(run.status)) pending.delete(run.id);
        }),
        takeWhile(() => pending.size > 0, true),
      );
    }).pipe(
      catchError((error: unknown) => {
        if (
          this.#capabilities.batch === undefined &&
          (error instanceof BadRequestError ||
            error instanceof NotFoundError ||
            error instanceof BatchIgnoredError)
        ) {
          this.#capabilities.batch = false;
          this.#transport.logger.debug?.('webdata: GET /runs?ids= not supported, polling runs one by one');
          return perRun$();
        }
        return throwError(() => error);
      }),
    );
  }

  #poll$(runId: string): Observable<RunLenient> {
    return defer(() => {
      const etag: PollState = { answered: false };
      return pollAdaptive(() => this.#fetchRun$(runId, etag), {
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

  #fetchBatch$(ids: string[]): Observable<PollAnswer<RunLenient[]>> {
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += LIMITS.maxIdsPerRequest) {
      chunks.push(ids.slice(i, i + LIMITS.maxIdsPerRequest));
    }
    return forkJoin(
      chunks.map((chunk) =>
        this.#transport.send$({
          method: 'GET',
          path: '/runs',
          query: { ids: chunk.join(','), limit: chunk.length },
        }),
      ),
    ).pipe(
      map((responses): PollAnswer<RunLenient[]> => {
        const pages = responses.map((response, index) => {
          const page = parseBody(response, RunPageLenient);
          const asked = new Set(chunks[index]);
          // A server that ignores `ids` answers other runs: it does not support batching.
          if (page.data.some((run) => !asked.has(run.id))) throw new BatchIgnoredError();
          return { page, asked, hintMs: pollHint(response.headers) };
        });
        this.#capabilities.batch = true;
        const runs: RunLenient[] = [];
        let hintMs: number | undefined;
        for (const { page, asked, hintMs: pageHint } of pages) {
          const seen = new Set(page.data.map((run) => run.id));
          const missing = [...asked].find((id) => !seen.has(id));
          if (missing !== undefined) {
            throw new NotFoundError({ status: 404, code: 'not_found', message: `run ${missing} not found` });
          }
          runs.push(...page.data);
          hintMs = pageHint ?? hintMs;
        }
        return { value: runs, hintMs };
      }),
    );
  }
}

/** The server answered `GET /runs?ids=` with runs that were not asked for. */
class BatchIgnoredError extends Error {}
