import { isTerminalStatus, LIMITS, type RunLenient, RunPageLenient } from '@webdata/contract';
import { Observable, type Subscriber } from 'rxjs';
import {
  AbortError,
  BadRequestError,
  NotFoundError,
  ResponseValidationError,
  WebDataError,
} from '../errors.js';
import { runSnapshotKey } from '../operators/distinctSnapshot.js';
import { type AdaptivePollPolicy, nextPollDelay, type PollScheduleState } from '../operators/pollAdaptive.js';
import { type HttpResponse, parseBody, type Transport } from '../transport.js';
import { lastValueAbortable } from './abort.js';
import { headerValue } from './backoff.js';
import type { ServerCapabilities } from './capabilities.js';
import { isOutage, OutageBudget } from './outage.js';

/** How a {@link RunFeed} watches. */
export interface RunFeedOptions {
  /** `wait` of each batched long poll, seconds (0: poll adaptively instead). */
  longPollSeconds: number;
  /**
   * Average least time between the starts of two batched long polls, so a
   * busy feed stays within a few requests a second (0: no spacing).
   */
  minIntervalMs: number;
  /** Long polls that may start back to back after a quiet spell, before the spacing applies. */
  burst: number;
  /** How long newly watched runs are gathered before they are read together. */
  gatherMs: number;
  /** Spacing of plain batched reads when the server cannot long-poll a list. */
  policy: AdaptivePollPolicy;
  /**
   * How long the feed rides out a server it cannot reach or that answers 5xx
   * (a restart), trying again every few seconds, before its watchers error
   * (0: at the first such error, after the request's own retries).
   */
  outageMs: number;
}

/** The server cannot read runs in batches (`GET /runs?ids=`): watch them one by one instead. */
export class BatchUnsupportedError extends WebDataError {
  override name = 'BatchUnsupportedError';
}

interface Entry {
  subscriber: Subscriber<RunLenient>;
  lastKey: string | undefined;
  /** Read at least once, so later changes can come from the change feed. */
  read: boolean;
}

/** The position in a change ETag (`"c123"`) of our server's run lists. */
function changePosition(response: HttpResponse): number | undefined {
  const match = /^(?:W\/)?"c(\d+)"$/.exec(headerValue(response.headers, 'etag')?.trim() ?? '');
  return match ? Number(match[1]) : undefined;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Every run a client watches, behind one request stream. Newly watched runs
 * are gathered for a moment and read together (`GET /runs?ids=`, 100 a
 * request); after that a single batched long poll waits for any of them to
 * change: `GET /runs?ids=…&wait=N` with the list's change ETag in
 * `If-None-Match` (for more than 100 runs, the same without `ids`: every
 * run of the key, filtered here; runs deleted since are named too). The
 * server answers with just the runs that changed, on the first change. Long
 * polls start one per `minIntervalMs` on average (up to `burst` back to back
 * after a quiet spell), so a feed over thousands of busy runs costs a few
 * requests a second, and a quiet one one request per `wait`. A server that cannot long-poll a list is polled with
 * plain batched reads on the adaptive schedule; one that cannot read
 * batches makes every watcher fail with {@link BatchUnsupportedError}, on
 * which the caller watches that run on its own.
 */
export class RunFeed {
  readonly #transport: Transport;
  readonly #capabilities: ServerCapabilities;
  readonly #options: RunFeedOptions;
  readonly #entries = new Map<string, Entry>();
  /** Every change after this position reaches the watchers (a change ETag of our server). */
  #position: number | undefined;
  /** Aborts the request or wait in progress, so the loop looks at the runs again. */
  #interrupt = new AbortController();
  #gatherTimer: ReturnType<typeof setTimeout> | undefined;
  #running = false;
  /** The loop is in a long poll or a pause, which newly watched runs may interrupt. */
  #waiting = false;
  /** Long polls that may start now: refilled one per `minIntervalMs`, up to `burst`. */
  #turns: number;
  #turnsAt = Date.now();
  #schedule: PollScheduleState;
  /** Counted as a per-run poller counts its own: from the first failed request to the next answer. */
  readonly #outage: OutageBudget;

  constructor(transport: Transport, capabilities: ServerCapabilities, options: RunFeedOptions) {
    this.#transport = transport;
    this.#capabilities = capabilities;
    this.#options = options;
    this.#schedule = { intervalMs: options.policy.initialMs, lastKey: undefined };
    this.#turns = options.burst;
    this.#outage = new OutageBudget({ outageMs: options.outageMs, logger: transport.logger });
  }

  /** Runs watched right now. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Distinct snapshots of one run until it is terminal (inclusive). One
   * subscription per run id at a time: the caller shares it.
   */
  watch(runId: string): Observable<RunLenient> {
    return new Observable<RunLenient>((subscriber) => {
      if (this.#entries.has(runId)) {
        subscriber.error(new WebDataError(`run ${runId} is already watched by this feed`));
        return;
      }
      this.#entries.set(runId, { subscriber, lastKey: undefined, read: false });
      this.#gatherNewRuns();
      this.#start();
      return () => {
        // A run no longer watched just drops out of the next request.
        if (this.#entries.get(runId)?.subscriber === subscriber) this.#entries.delete(runId);
      };
    });
  }

  /** Gives newly watched runs a moment to arrive together, then makes the loop read them. */
  #gatherNewRuns(): void {
    if (this.#gatherTimer !== undefined) return;
    this.#gatherTimer = setTimeout(() => {
      this.#gatherTimer = undefined;
      // A long poll (or a pause) in progress gives way; a read in progress is left to finish.
      if (this.#waiting) this.#interrupt.abort();
    }, this.#options.gatherMs);
  }

  #start(): void {
    if (this.#running) return;
    this.#running = true;
    void this.#loop().finally(() => {
      this.#running = false;
      // A run watched while the loop was ending.
      if (this.#entries.size > 0) this.#start();
    });
  }

  async #loop(): Promise<void> {
    while (this.#entries.size > 0) {
      if (this.#interrupt.signal.aborted) this.#interrupt = new AbortController();
      const signal = this.#interrupt.signal;
      try {
        const unread = [...this.#entries].filter(([, entry]) => !entry.read).map(([id]) => id);
        if (unread.length > 0 && this.#gatherTimer === undefined) await this.#readRuns(unread);
        else if (unread.length === this.#entries.size) await this.#wait(signal, this.#options.gatherMs + 50);
        else if (this.#canLongPoll()) await this.#longPoll(signal);
        else await this.#pollPlainly(signal);
      } catch (error) {
        if (signal.aborted && error instanceof AbortError) continue;
        const delayMs = this.#outage.retryDelayMs(error, { runs: this.#entries.size });
        if (delayMs !== undefined) {
          await this.#wait(signal, delayMs);
          continue;
        }
        this.#outage.reset();
        this.#failAll(error);
      }
    }
    // Nothing watched: the next watcher starts from a fresh read, not from an old position.
    this.#position = undefined;
  }

  /** A pause that newly watched runs may cut short. */
  async #wait(signal: AbortSignal, ms: number): Promise<void> {
    this.#waiting = true;
    try {
      await sleep(ms, signal);
    } finally {
      this.#waiting = false;
    }
  }

  #canLongPoll(): boolean {
    return (
      this.#options.longPollSeconds > 0 &&
      this.#capabilities.batchLongPoll !== false &&
      this.#position !== undefined
    );
  }

  /** Plain batched reads of `ids`: each run's current snapshot, and where the change feed may start. */
  async #readRuns(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += LIMITS.maxIdsPerRequest) {
      const chunk = ids.slice(i, i + LIMITS.maxIdsPerRequest).filter((id) => this.#entries.has(id));
      if (chunk.length === 0) continue;
      const response = await this.#send({ ids: chunk.join(','), limit: chunk.length });
      const page = this.#parsePage(response, chunk);
      this.#capabilities.batch = true;
      const position = changePosition(response);
      if (position === undefined) this.#capabilities.batchLongPoll = false;
      // The feed must not start after this read: a later answer's position may be past changes to these runs.
      else this.#position = this.#position === undefined ? position : Math.min(this.#position, position);
      const seen = new Set<string>();
      for (const run of page) {
        seen.add(run.id);
        this.#deliver(run);
      }
      for (const id of chunk) {
        const entry = this.#entries.get(id);
        if (!entry) continue;
        entry.read = true;
        if (!seen.has(id))
          this.#fail(
            id,
            new NotFoundError({ status: 404, code: 'not_found', message: `run ${id} not found` }),
          );
      }
    }
  }

  /** Ms until the next long poll may start (0: now), after refilling the turns. */
  #turnDelay(): number {
    const { minIntervalMs, burst } = this.#options;
    if (minIntervalMs <= 0) return 0;
    const now = Date.now();
    this.#turns = Math.min(burst, this.#turns + (now - this.#turnsAt) / minIntervalMs);
    this.#turnsAt = now;
    return this.#turns >= 1 ? 0 : Math.ceil((1 - this.#turns) * minIntervalMs);
  }

  /**
   * One batched long poll from the feed's position; the runs that changed go
   * to their watchers. The server answers as soon as one changes, and the next
   * poll goes out at once if a turn is left: under a storm of changes each
   * answer carries those that came while the last one travelled, and the turns
   * (one per `minIntervalMs`) keep the feed within a few requests a second.
   */
  async #longPoll(signal: AbortSignal): Promise<void> {
    await this.#wait(signal, this.#turnDelay());
    if (signal.aborted) return;
    const ids = [...this.#entries].filter(([, entry]) => entry.read).map(([id]) => id);
    if (ids.length === 0) return;
    // Up to 100 runs are named; beyond that the feed covers every run of the key and this side filters.
    const byIds = ids.length <= LIMITS.maxIdsPerRequest;
    const limit = byIds ? ids.length : LIMITS.maxPageSize;
    const wait = this.#options.longPollSeconds;
    this.#turnDelay();
    this.#turns -= 1;
    this.#waiting = true;
    let response: HttpResponse;
    try {
      response = await this.#send(
        { ids: byIds ? ids.join(',') : undefined, limit, wait },
        { longPoll: true, signal, etag: `"c${this.#position}"`, timeoutMs: 60_000 + wait * 1000 },
      );
    } finally {
      this.#waiting = false;
    }
    if (headerValue(response.headers, 'x-webdata-wait') === undefined) {
      // A server that ignores `wait` on lists: plain batched polling from now on.
      this.#capabilities.batchLongPoll = false;
      return;
    }
    this.#capabilities.batchLongPoll = true;
    const position = changePosition(response);
    if (response.status === 304) return;
    const runs = this.#parsePage(response, byIds ? ids : undefined);
    for (const run of runs) this.#deliver(run);
    for (const id of headerValue(response.headers, 'x-webdata-missing')?.split(',') ?? []) {
      this.#fail(id, new NotFoundError({ status: 404, code: 'not_found', message: `run ${id} not found` }));
    }
    if (position !== undefined) this.#position = position;
    // A full page: more changes are waiting, ask again at once (that poll is this one's continuation).
    if (runs.length >= limit) this.#turns = Math.max(this.#turns, 1);
  }

  /** Every watched run read in batches, spaced by the adaptive schedule (a server without list long polls). */
  async #pollPlainly(signal: AbortSignal): Promise<void> {
    const before = [...this.#entries.values()].map((entry) => entry.lastKey).join('\n');
    const startedAt = Date.now();
    await this.#readRuns([...this.#entries.keys()]);
    const after = [...this.#entries.values()].map((entry) => entry.lastKey).join('\n');
    const next = nextPollDelay(this.#schedule, this.#options.policy, {
      changed: before !== after,
      elapsedMs: Date.now() - startedAt,
    });
    this.#schedule = next.state;
    await this.#wait(signal, next.delayMs);
  }

  async #send(
    query: Record<string, string | number | undefined>,
    options: { longPoll?: boolean; signal?: AbortSignal; etag?: string; timeoutMs?: number } = {},
  ): Promise<HttpResponse> {
    try {
      const response = await lastValueAbortable(
        this.#transport.send$({
          method: 'GET',
          path: '/runs',
          query,
          headers: options.etag ? { 'if-none-match': options.etag } : undefined,
          allowNotModified: true,
          longPoll: options.longPoll,
          timeoutMs: options.timeoutMs,
        }),
        options.signal,
      );
      this.#outage.reset();
      return response;
    } catch (error) {
      // An error answer (a 4xx) is an answer too: the server is up, and the outage is over.
      if (!isOutage(error) && !(error instanceof AbortError)) this.#outage.reset();
      if (this.#capabilities.batch === undefined && isRefusal(error)) {
        this.#capabilities.batch = false;
        this.#transport.logger.debug?.('webdata: GET /runs?ids= not supported, polling runs one by one');
        throw new BatchUnsupportedError('this server cannot read runs in batches');
      }
      throw error;
    }
  }

  /** The runs of a page, checking that a server asked for `ids` answered only those. */
  #parsePage(response: HttpResponse, asked: readonly string[] | undefined): RunLenient[] {
    let runs: RunLenient[];
    try {
      runs = parseBody(response, RunPageLenient).data;
    } catch (error) {
      if (this.#capabilities.batch === undefined) throw this.#unsupported();
      throw error;
    }
    if (asked) {
      const wanted = new Set(asked);
      // A server that ignores `ids` answers other runs: it does not support batching.
      if (runs.some((run) => !wanted.has(run.id))) {
        if (this.#capabilities.batch !== true) throw this.#unsupported();
        throw new ResponseValidationError('the server answered runs that were not asked for', {
          status: response.status,
          requestId: response.requestId,
        });
      }
    }
    return runs;
  }

  #unsupported(): BatchUnsupportedError {
    this.#capabilities.batch = false;
    return new BatchUnsupportedError('this server cannot read runs in batches');
  }

  #deliver(run: RunLenient): void {
    const entry = this.#entries.get(run.id);
    if (!entry) return;
    const key = runSnapshotKey(run);
    if (key === entry.lastKey) return;
    entry.lastKey = key;
    entry.subscriber.next(run);
    if (isTerminalStatus(run.status)) {
      this.#entries.delete(run.id);
      entry.subscriber.complete();
    }
  }

  #fail(runId: string, error: unknown): void {
    const entry = this.#entries.get(runId);
    if (!entry) return;
    this.#entries.delete(runId);
    entry.subscriber.error(error);
  }

  #failAll(error: unknown): void {
    for (const id of [...this.#entries.keys()]) this.#fail(id, error);
    this.#position = undefined;
  }
}

/** Answers a server gives to a query parameter it does not know. */
function isRefusal(error: unknown): boolean {
  return (
    error instanceof BadRequestError ||
    error instanceof NotFoundError ||
    (error instanceof WebDataError && 'status' in error && (error.status === 405 || error.status === 501))
  );
}
