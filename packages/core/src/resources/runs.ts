import {
  type CreateRunRequest,
  ENDPOINTS,
  type ExtractRequest,
  isTerminalStatus,
  ListRunsQuery,
  type ResultContentFormat,
  type ResultContentLenient,
  type ResultLenient,
  RunLenient,
  RunPageLenient,
  type ScreenshotAccessLenient,
} from '@webdata/contract';
import {
  catchError,
  concat,
  defer,
  EMPTY,
  lastValueFrom,
  map,
  mergeMap,
  Observable,
  of,
  type SchedulerLike,
  takeLast,
  tap,
  throwError,
} from 'rxjs';
import type { z } from 'zod';
import {
  RequestValidationError,
  ResultDataError,
  RunFailedError,
  RunTimeoutError,
  WebDataError,
} from '../errors.js';
import { abortWith, lastValueAbortable } from '../internal/abort.js';
import { segment } from '../internal/encode.js';
import { isZodSchema, toExtractionJsonSchema } from '../internal/json-schema.js';
import { pageSizeOf } from '../internal/page-size.js';
import type { RunWatcher } from '../internal/run-watcher.js';
import { deadline } from '../operators/deadline.js';
import { distinctSnapshot } from '../operators/distinctSnapshot.js';
import { PagedStream } from '../paged-stream.js';
import type { RunEvent, RunOptions, RunResult } from '../run-events.js';
import type { Transport } from '../transport.js';
import type { ExpandedResult, ResultPage, Results, ResultsOptions } from './results.js';

type RunPage = z.infer<typeof RunPageLenient>;

/**
 * What {@link Runs.listAll} lists: {@link ListRunsQuery}'s filters, and the
 * size of each page it asks for.
 *
 * @example
 * ```ts
 * const query: ListAllRunsQuery = { status: 'failed', pageSize: 200 };
 * ```
 */
export interface ListAllRunsQuery extends Omit<Partial<ListRunsQuery>, 'cursor' | 'limit'> {
  /** Runs a request (1–200, default 50); every run is listed whatever it is. */
  pageSize?: number | undefined;
  /**
   * Older name of {@link pageSize}: the size of each page, not how many runs are listed.
   * @deprecated use `pageSize`.
   */
  limit?: number | undefined;
}

/**
 * Options of a one-shot call: its `AbortSignal`.
 *
 * @example
 * ```ts
 * await client.runs.get(id, { signal: AbortSignal.timeout(5_000) });
 * ```
 */
export interface CallOptions {
  signal?: AbortSignal | undefined;
}

/** An extraction body whose `schema` is a zod object schema instead of JSON Schema. */
export type TypedExtractRequest<S extends z.ZodType> = Omit<ExtractRequest, 'schema'> & { schema: S };

/**
 * Where a run is created, and with which contract schema its body is checked before sending.
 *
 * @example
 * ```ts
 * client.runs.start$('crawl', { urls: ['https://example.org/'] }).subscribe((run) => console.log(run.id));
 * ```
 */
export type RunKind = 'extract' | 'crawl' | 'deep-crawl' | 'runs';

/** Where each kind of run is created, and its body's schema: the contract's creating endpoints. */
const CREATE_PATHS = new Map(
  ENDPOINTS.filter((endpoint) => endpoint.method === 'post' && endpoint.idempotent && endpoint.body).map(
    (endpoint) => {
      const path = endpoint.path.replace(/^\/api\/v1/, '');
      return [path.slice(1), { path, schema: endpoint.body as z.ZodType }] as const;
    },
  ),
);

function createEndpoint(kind: RunKind): { path: string; schema: z.ZodType } {
  const endpoint = CREATE_PATHS.get(kind);
  if (!endpoint) throw new TypeError(`the contract has no endpoint creating a ${kind} run`);
  return endpoint;
}

/** Validates a result's `data` with the caller's zod schema, if any. */
type DataParser = (
  result: ResultLenient,
) => { ok: true; result: RunResult<unknown> } | { ok: false; error: ResultDataError };

/**
 * Runs: create them as observables, watch, follow, list, inspect, cancel,
 * retry, delete, and read their results. Reached as `client.runs`.
 *
 * @example
 * ```ts
 * const run = await client.runs.get(id);
 * client.runs.watch(id).subscribe((snapshot) => console.log(snapshot.status));
 * for await (const result of client.runs.results(id)) console.log(result.url);
 * ```
 */
export class Runs {
  readonly #transport: Transport;
  readonly #watcher: RunWatcher;
  readonly #results: Results;
  readonly #scheduler: SchedulerLike | undefined;

  constructor(transport: Transport, watcher: RunWatcher, results: Results, scheduler?: SchedulerLike) {
    this.#transport = transport;
    this.#watcher = watcher;
    this.#results = results;
    this.#scheduler = scheduler;
  }

  /**
   * Creates a run with `POST /runs` (`{ type, …that type's body }`) on
   * subscription, then emits its lifecycle ({@link RunEvent}). Cold: every
   * subscription creates a run.
   *
   * @example
   * ```ts
   * client.runs.create({ type: 'crawl', urls: ['https://example.org/'] }).subscribe((event) => console.log(event.type));
   * ```
   */
  create<S extends z.ZodType>(
    body: { type: 'extract' } & TypedExtractRequest<S>,
    options?: RunOptions,
  ): Observable<RunEvent<z.output<S>>>;
  create(body: CreateRunRequest, options?: RunOptions): Observable<RunEvent>;
  create(
    body: CreateRunRequest | ({ type: 'extract' } & TypedExtractRequest<z.ZodType>),
    options: RunOptions = {},
  ) {
    return this.lifecycle('runs', body, options);
  }

  /**
   * Creates a run and resolves with it, without watching it (for that, see
   * {@link watch} and {@link follow}, or use {@link create} instead).
   *
   * @example
   * ```ts
   * const run = await client.runs.start({ type: 'crawl', urls: ['https://example.org/'] });
   * console.log(run.id, run.status); // 'queued'
   * ```
   */
  start(
    body: CreateRunRequest | ({ type: 'extract' } & TypedExtractRequest<z.ZodType>),
    options: Pick<RunOptions, 'idempotencyKey' | 'signal'> = {},
  ): Promise<RunLenient> {
    return lastValueAbortable(this.start$('runs', body, options), options.signal);
  }

  /** Observable twin of {@link start}, for any creating endpoint. */
  start$(
    kind: RunKind,
    body: object,
    options: Pick<RunOptions, 'idempotencyKey'> = {},
  ): Observable<RunLenient> {
    return defer(() => {
      const { wire } = prepareBody(kind, body);
      return this.#create$(kind, wire, options.idempotencyKey);
    });
  }

  /**
   * The whole lifecycle of a run created at `kind`'s endpoint. Used by
   * `client.extract`, `client.crawl`, `client.deepCrawl` and {@link create}.
   */
  lifecycle(kind: RunKind, body: object, options: RunOptions): Observable<RunEvent<unknown>> {
    return defer(() => {
      const { wire, parse } = prepareBody(kind, withContentFormat(kind, body, options.content));
      const create$ = this.#create$(kind, wire, options.idempotencyKey);
      return this.#events$(create$, undefined, options, parse);
    });
  }

  /**
   * The lifecycle of an existing run (say, after {@link retry}): its distinct
   * snapshots until terminal, then its results, then `completed`. No `created` event.
   *
   * @example
   * ```ts
   * await client.runs.retry(id);
   * client.runs.follow(id).subscribe((event) => console.log(event.type));
   * ```
   */
  follow(runId: string, options: RunOptions = {}): Observable<RunEvent> {
    return this.#events$(undefined, runId, options, plainParser) as Observable<RunEvent>;
  }

  /**
   * Distinct status snapshots of a run until it is terminal (inclusive), then
   * completes. One shared poller per run: every subscriber to the same id
   * shares one request stream, and a late subscriber gets the latest snapshot
   * at once. Polling stops when the last subscriber leaves. Long-polls with
   * `?wait=` when the server supports it, otherwise polls adaptively with `If-None-Match`.
   *
   * @example
   * ```ts
   * const run$ = client.runs.watch(id);
   * run$.subscribe((run) => tree.update(run));
   * run$.subscribe((run) => progressBar.set(run.stats?.succeeded ?? 0)); // same requests
   * ```
   */
  watch(runId: string, options: CallOptions = {}): Observable<RunLenient> {
    return this.#watcher.watch(runId).pipe(abortWith(options.signal));
  }

  /**
   * Distinct snapshots of many runs at once, each until terminal; completes
   * when all are. Batched into `GET /runs?ids=` (100 ids per request) where
   * the server supports it, otherwise one shared poller per run. A run
   * deleted meanwhile errors the whole stream with `NotFoundError`, unless
   * `deleted: 'skip'`: then only that run's snapshots end, the others go on.
   *
   * @example
   * ```ts
   * client.runs.watchMany(ids, { deleted: 'skip' }).subscribe((run) => table.update(run.id, run.status));
   * ```
   */
  watchMany(
    runIds: readonly string[],
    options: CallOptions & { deleted?: 'error' | 'skip' | undefined } = {},
  ): Observable<RunLenient> {
    return this.#watcher.watchMany(runIds, { deleted: options.deleted }).pipe(abortWith(options.signal));
  }

  /**
   * Waits for a run to end and resolves with its terminal snapshot, without
   * reading its results: the promise path for a run started with {@link start}
   * (or by someone else). It resolves whatever the terminal status, `failed`
   * and `cancelled` included, so check `run.status`. Watched like {@link watch}
   * (one shared request stream). `deadlineMs` rejects with `RunTimeoutError`
   * and leaves the run going; `signal` rejects with `AbortError`.
   *
   * @example
   * ```ts
   * const started = await client.runs.start({ type: 'crawl', urls: ['https://example.org/'] });
   * const run = await client.runs.wait(started.id, { deadlineMs: 600_000 });
   * if (run.status !== 'failed') for await (const result of client.runs.results(run.id)) console.log(result.url);
   * ```
   */
  wait(runId: string, options: Pick<RunOptions, 'deadlineMs' | 'signal'> = {}): Promise<RunLenient> {
    return lastValueAbortable(this.wait$(runId, options), options.signal);
  }

  /** Observable twin of {@link wait}: emits the terminal snapshot, then completes. */
  wait$(runId: string, options: Pick<RunOptions, 'deadlineMs'> = {}): Observable<RunLenient> {
    return defer(() => {
      let latest: RunLenient | undefined;
      const snapshots$ = this.#watcher.watch(runId).pipe(
        tap((run) => {
          latest = run;
        }),
      );
      const deadlineMs = options.deadlineMs;
      const bounded$ =
        deadlineMs === undefined
          ? snapshots$
          : snapshots$.pipe(
              deadline(deadlineMs, () => new RunTimeoutError(runId, deadlineMs, latest), this.#scheduler),
            );
      return bounded$.pipe(
        takeLast(1),
        map((run) => {
          if (!isTerminalStatus(run.status)) {
            throw watchEndedEarly(run);
          }
          return run;
        }),
      );
    });
  }

  /**
   * Every result of a run, lazily, across pages: an observable and an async
   * iterable. `content: 'markdown'` carries each result's content in the same
   * read. The run must be terminal (else `RunNotFinishedError`), unless
   * `unfinished: 'read'` asks for what is done so far.
   *
   * @example
   * ```ts
   * for await (const result of client.runs.results(id, { status: 'succeeded' })) console.log(result.title);
   * ```
   */
  results(runId: string, options: ResultsOptions = {}): PagedStream<ExpandedResult> {
    return this.#results.list(runId, options);
  }

  /**
   * One page of a run's results, for callers that page explicitly (a table with "next").
   *
   * @example
   * ```ts
   * const { data, next_cursor } = await client.runs.resultsPage(id, { limit: 20, status: 'failed' });
   * // Each result with its Markdown (`include=content`): such a page holds at most 8 Mi characters of it.
   * const withContent = await client.runs.resultsPage(id, { limit: 200, content: 'markdown' });
   * ```
   */
  resultsPage(
    runId: string,
    query: {
      cursor?: string | undefined;
      limit?: number | undefined;
      status?: 'succeeded' | 'failed' | undefined;
      /** Carry each result's content in this format, as {@link results} does (`'default'`: the run's first). */
      content?: ResultContentFormat | 'default' | undefined;
    } = {},
    options: CallOptions = {},
  ): Promise<ResultPage> {
    const { content, ...rest } = query;
    if (content === undefined) return lastValueAbortable(this.#results.page$(runId, rest), options.signal);
    return lastValueAbortable(this.#results.pageWithContent$(runId, rest, content), options.signal);
  }

  /**
   * One result's content.
   *
   * @example
   * ```ts
   * const { content } = await client.runs.content(runId, resultId, { format: 'markdown' });
   * ```
   */
  content(
    runId: string,
    resultId: string,
    options: { format?: ResultContentFormat | undefined } & CallOptions = {},
  ): Promise<ResultContentLenient> {
    return this.#results.content(runId, resultId, options);
  }

  /** Observable twin of {@link content}. */
  content$(runId: string, resultId: string, options: { format?: ResultContentFormat | undefined } = {}) {
    return this.#results.content$(runId, resultId, options);
  }

  /**
   * A signed URL to a result's screenshot, fetchable without the API key until `expires_at`.
   *
   * @example
   * ```ts
   * const { url } = await client.runs.screenshot(runId, resultId);
   * ```
   */
  screenshot(runId: string, resultId: string, options: CallOptions = {}): Promise<ScreenshotAccessLenient> {
    return this.#results.screenshot(runId, resultId, options);
  }

  /** Observable twin of {@link screenshot}. */
  screenshot$(runId: string, resultId: string): Observable<ScreenshotAccessLenient> {
    return this.#results.screenshot$(runId, resultId);
  }

  /**
   * A result's screenshot as PNG bytes: asks for its signed URL and fetches
   * it (without the API key, which the URL does not need). A result without
   * one is a `NotFoundError`; an expired or altered URL a `PermissionDeniedError`.
   *
   * @example
   * ```ts
   * const png = await client.runs.screenshotPng(runId, result.id);
   * await writeFile('page.png', png);
   * ```
   */
  screenshotPng(runId: string, resultId: string, options: CallOptions = {}): Promise<Uint8Array> {
    return lastValueAbortable(this.#results.screenshotPng$(runId, resultId), options.signal);
  }

  /** Observable twin of {@link screenshotPng}. */
  screenshotPng$(runId: string, resultId: string): Observable<Uint8Array> {
    return this.#results.screenshotPng$(runId, resultId);
  }

  /**
   * One page of runs, newest first, filtered by `status`, `type` or `ids`.
   *
   * @example
   * ```ts
   * const { data, next_cursor } = await client.runs.list({ status: 'running', limit: 20 });
   * ```
   */
  list(query: Partial<ListRunsQuery> = {}, options: CallOptions = {}): Promise<RunPage> {
    return lastValueAbortable(this.list$(query), options.signal);
  }

  /** Observable twin of {@link list}. */
  list$(query: Partial<ListRunsQuery> = {}): Observable<RunPage> {
    const { ids, ...rest } = query;
    return this.#transport.json$(
      { method: 'GET', path: '/runs', query: { ...rest, ids: ids?.join(',') } },
      RunPageLenient,
    );
  }

  /**
   * Every run matching `query`, across pages, lazily: `pageSize` runs a
   * request. For fewer runs, stop early (`break`, or rxjs `take(n)`): no
   * further page is asked for.
   *
   * @example
   * ```ts
   * for await (const run of client.runs.listAll({ type: 'crawl', pageSize: 200 })) console.log(run.id, run.status);
   * ```
   */
  listAll(query: ListAllRunsQuery = {}, options: CallOptions = {}): PagedStream<RunLenient> {
    const { pageSize, limit, ...filters } = query;
    const size = pageSizeOf('runs', ListRunsQuery.shape.limit, pageSize ?? limit);
    return new PagedStream(
      (cursor) => (typeof size === 'number' ? this.list$({ ...filters, limit: size, cursor }) : size),
      options.signal,
    );
  }

  /**
   * A run's current state and statistics.
   *
   * @example
   * ```ts
   * const run = await client.runs.get('run_abc');
   * console.log(run.status, run.stats);
   * ```
   */
  get(runId: string, options: CallOptions = {}): Promise<RunLenient> {
    return lastValueAbortable(this.get$(runId), options.signal);
  }

  /** Observable twin of {@link get}. */
  get$(runId: string): Observable<RunLenient> {
    return this.#transport.json$({ method: 'GET', path: `/runs/${segment(runId)}` }, RunLenient);
  }

  /**
   * Cancels a queued or running run (409 `ConflictError` otherwise); what finished stays readable.
   *
   * @example
   * ```ts
   * const run = await client.runs.cancel(id);
   * console.log(run.status); // 'cancelled'
   * ```
   */
  cancel(runId: string, options: CallOptions = {}): Promise<RunLenient> {
    return lastValueAbortable(this.cancel$(runId), options.signal);
  }

  /** Observable twin of {@link cancel}. */
  cancel$(runId: string): Observable<RunLenient> {
    return this.#transport.json$({ method: 'POST', path: `/runs/${segment(runId)}/cancel` }, RunLenient);
  }

  /**
   * Queues an `incomplete`, `failed` or `cancelled` run again; only the items
   * that did not succeed run again. Follow it with {@link follow}.
   *
   * @example
   * ```ts
   * await client.runs.retry(id);
   * const outcome = await collectRun(client.runs.follow(id));
   * ```
   */
  retry(runId: string, options: CallOptions = {}): Promise<RunLenient> {
    return lastValueAbortable(this.retry$(runId), options.signal);
  }

  /** Observable twin of {@link retry}. */
  retry$(runId: string): Observable<RunLenient> {
    return this.#transport.json$({ method: 'POST', path: `/runs/${segment(runId)}/retry` }, RunLenient);
  }

  /**
   * Deletes a run with its results, content and screenshots (an active run is cancelled first).
   *
   * @example
   * ```ts
   * await client.runs.delete(id);
   * ```
   */
  async delete(runId: string, options: CallOptions = {}): Promise<void> {
    await lastValueAbortable(this.delete$(runId), options.signal);
  }

  /** Observable twin of {@link delete}; emits once when done. */
  delete$(runId: string): Observable<void> {
    return this.#transport
      .send$({ method: 'DELETE', path: `/runs/${segment(runId)}` })
      .pipe(map(() => undefined));
  }

  #create$(
    kind: RunKind,
    wire: Record<string, unknown>,
    idempotencyKey: string | undefined,
  ): Observable<RunLenient> {
    return this.#transport.json$(
      {
        method: 'POST',
        path: createEndpoint(kind).path,
        body: wire,
        headers: { 'idempotency-key': idempotencyKey ?? this.#transport.newIdempotencyKey() },
        // With an idempotency key a retried creation returns the first run, never a second one.
        retry: 'safe',
      },
      RunLenient,
    );
  }

  #events$(
    create$: Observable<RunLenient> | undefined,
    existingId: string | undefined,
    options: RunOptions,
    parse: DataParser,
  ): Observable<RunEvent<unknown>> {
    return defer(() => {
      const state: {
        id: string | undefined;
        last: RunLenient | undefined;
        terminal: boolean;
        /** The creating POST went out and has not answered. */
        creating: boolean;
      } = {
        id: existingId,
        last: undefined,
        terminal: false,
        creating: false,
      };
      const observe = (run: RunLenient) => {
        state.id = run.id;
        state.last = run;
        state.terminal = isTerminalStatus(run.status);
      };
      const statuses$ = (id: string, seed?: RunLenient): Observable<RunEvent<unknown>> =>
        this.#watcher.watch(id).pipe(
          distinctSnapshot(seed),
          tap(observe),
          map((run) => ({ type: 'status' as const, run })),
        );
      const untilTerminal$: Observable<RunEvent<unknown>> = create$
        ? defer(() => {
            state.creating = true;
            return create$;
          }).pipe(
            tap({ next: () => (state.creating = false), error: () => (state.creating = false) }),
            mergeMap((created) => {
              observe(created);
              const createdEvent = of({ type: 'created' as const, run: created });
              return state.terminal ? createdEvent : concat(createdEvent, statuses$(created.id, created));
            }),
          )
        : statuses$(existingId as string);
      const bounded$ =
        options.deadlineMs === undefined
          ? untilTerminal$
          : untilTerminal$.pipe(
              deadline(
                options.deadlineMs,
                () => new RunTimeoutError(state.id, options.deadlineMs as number, state.last),
                this.#scheduler,
              ),
            );
      const events$ = concat(
        bounded$,
        defer(() => (state.last ? this.#finish$(state.last, options, parse) : EMPTY)),
      );
      return new Observable<RunEvent<unknown>>((subscriber) => {
        const inner = events$.pipe(abortWith(options.signal)).subscribe(subscriber);
        return () => {
          inner.unsubscribe();
          if (!options.cancelOnUnsubscribe || state.terminal) return;
          const warn = (runId: string | undefined) => (error: unknown) =>
            this.#transport.logger.warn?.('webdata: cancel on unsubscribe failed', {
              runId,
              error: error instanceof Error ? error.message : String(error),
            });
          if (state.id !== undefined) {
            const id = state.id;
            this.cancel(id).catch(warn(id));
          } else if (create$ && state.creating) {
            // The creation went out unanswered: the server may have made the run all the same.
            // The same request with the same Idempotency-Key answers that run (or makes it), to cancel.
            lastValueFrom(create$)
              .then((run) => (isTerminalStatus(run.status) ? undefined : this.cancel(run.id)))
              .catch(warn(undefined));
          }
        };
      });
    });
  }

  /**
   * Errors with a {@link RunFailedError} carrying the run's first failed
   * result: a run fails as a whole when every page did, and "each result's
   * error says why" helps a caller only if the error carries one. One request;
   * if it fails, the error goes without it.
   */
  #failed$(run: RunLenient): Observable<never> {
    return this.#results.page$(run.id, { status: 'failed', limit: 1 }).pipe(
      map((page) => page.data[0]),
      catchError(() => of(undefined)),
      mergeMap((first) => throwError(() => new RunFailedError(run, first))),
    );
  }

  #finish$(run: RunLenient, options: RunOptions, parse: DataParser): Observable<RunEvent<unknown>> {
    if (run.status === 'failed') return this.#failed$(run);
    if (!isTerminalStatus(run.status)) {
      return throwError(() => watchEndedEarly(run));
    }
    const counts = { results: 0, invalidResults: 0 };
    const completed = defer(() => of({ type: 'completed' as const, run, ...counts }));
    if (run.status === 'cancelled' && !options.includeCancelledResults) return completed;
    const results$ = this.#results
      .list(run.id, {
        status: options.resultStatus,
        pageSize: options.pageSize,
        content: options.content,
        // The run is terminal: this stream just watched it get there.
        unfinished: 'read',
      })
      .pipe(
        mergeMap((result): Observable<RunEvent<unknown>> => {
          const parsed = parse(result);
          if (parsed.ok) {
            counts.results++;
            return of({ type: 'result', result: parsed.result });
          }
          if (options.onInvalidResult === 'error') return throwError(() => parsed.error);
          counts.invalidResults++;
          return of({ type: 'invalid-result', result, error: parsed.error });
        }),
      );
    return concat(results$, completed);
  }
}

/** A crawl's formats when its request names none (the contract's default). */
const DEFAULT_CRAWL_FORMATS: readonly string[] = ['markdown'];

/**
 * A crawl or deep crawl whose stream asks for the content of a format the run
 * would not store (`content: 'html'` on a crawl of the default Markdown) asks
 * the server to store that format too, as the CLI's `--content` does: else
 * every page's content came back null. Other requests go as written.
 */
function withContentFormat(kind: RunKind, body: object, content: RunOptions['content']): object {
  if (content === undefined || content === 'default' || content === 'json') return body;
  const source = body as Record<string, unknown>;
  const type = kind === 'runs' ? source.type : kind;
  if (type !== 'crawl' && type !== 'deep-crawl') return body;
  const formats = Array.isArray(source.formats) ? (source.formats as unknown[]) : DEFAULT_CRAWL_FORMATS;
  if (formats.includes(content)) return body;
  return { ...source, formats: [...formats, content] };
}

const plainParser: DataParser = (result) => ({ ok: true, result: result as RunResult<unknown> });

/**
 * Checks a creation body against the contract (strict in what we send) and
 * turns a zod `schema` into the JSON Schema sent on the wire, returning the
 * parser that checks each result's data with it.
 */
function prepareBody(kind: RunKind, body: object): { wire: Record<string, unknown>; parse: DataParser } {
  const source = body as Record<string, unknown>;
  const zodSchema = isZodSchema(source.schema) ? source.schema : undefined;
  const extraction = zodSchema ? toExtractionJsonSchema(zodSchema) : undefined;
  const wire = extraction ? { ...source, schema: extraction.jsonSchema } : { ...source };
  const checked = createEndpoint(kind).schema.safeParse(wire);
  if (!checked.success) {
    // POST /runs names the kind in its body: say "invalid crawl request", not "invalid runs request".
    const what = kind === 'runs' && typeof source.type === 'string' ? source.type : kind;
    throw RequestValidationError.of(what, checked.error.issues);
  }
  if (!zodSchema || !extraction) return { wire, parse: plainParser };
  const parse: DataParser = (result) => {
    if (result.data === null || result.data === undefined) {
      return { ok: true, result: { ...result, data: null } as RunResult<unknown> };
    }
    const parsed = zodSchema.safeParse(extraction.coerce(result.data));
    if (parsed.success) return { ok: true, result: { ...result, data: parsed.data } as RunResult<unknown> };
    return { ok: false, error: new ResultDataError(result.id, parsed.error.issues) };
  };
  return { wire, parse };
}

/** The error when a run's snapshots end before it is terminal (the watch gave up on it). */
function watchEndedEarly(run: RunLenient): WebDataError {
  return new WebDataError(`run ${run.id} stopped being watched in status ${run.status}`, {
    code: 'stream_ended',
  });
}
