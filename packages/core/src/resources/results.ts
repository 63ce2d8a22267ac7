import {
  type ContentValue,
  isTerminalStatus,
  PageQuery,
  type ResultContentFormat,
  ResultContentLenient,
  type ResultLenient,
  ResultPageLenient,
  RunLenient,
  ScreenshotAccessLenient,
} from '@webdata/contract';
import { catchError, from, map, mergeMap, type Observable, of, tap, throwError, toArray } from 'rxjs';
import type { z } from 'zod';
import { NotFoundError, RunNotFinishedError } from '../errors.js';
import { lastValueAbortable } from '../internal/abort.js';
import { segment } from '../internal/encode.js';
import { pageSizeOf } from '../internal/page-size.js';
import { type ItemPage, PagedStream } from '../paged-stream.js';
import type { Transport } from '../transport.js';

/**
 * Options of {@link Results.list}.
 *
 * @example
 * ```ts
 * client.runs.results(id, { status: 'succeeded', pageSize: 200, content: 'markdown' });
 * ```
 */
export interface ResultsOptions {
  /** Only results in this state. */
  status?: 'succeeded' | 'failed' | undefined;
  /** Results per page (1–200, default 100). */
  pageSize?: number | undefined;
  /**
   * Carry each result's content in this format, in the same paged read
   * (`include=content`); `'default'`: the run's first requested format. A
   * result without content in it gets `content: null` (the listing goes on).
   * Against a server that ignores `include`, each content is fetched on its
   * own, four at a time.
   */
  content?: ResultContentFormat | 'default' | undefined;
  /**
   * Older spelling of {@link content}: `expand: ['content']` with `contentFormat`.
   * @deprecated use `content: 'markdown'` (or another format).
   */
  expand?: 'content'[] | undefined;
  /** @deprecated use {@link content}. */
  contentFormat?: ResultContentFormat | undefined;
  /**
   * The results of a run still queued or running are only what is done so
   * far: `'error'` (default) fails with `RunNotFinishedError` before reading
   * any; `'read'` reads them anyway (no check, one request less).
   */
  unfinished?: 'error' | 'read' | undefined;
  /** Aborts the async iteration (observable subscribers unsubscribe instead). */
  signal?: AbortSignal | undefined;
}

/**
 * A result as read from any server, with its `content` when it was asked for
 * (`content: 'markdown'`): a string for markdown, html and text, the links as
 * an array, the extracted object for json, null when the result has none in
 * that format.
 *
 * @example
 * ```ts
 * for await (const r of client.runs.results(id, { content: 'markdown' })) {
 *   if (typeof r.content === 'string') console.log(r.url, r.content.length);
 * }
 * ```
 */
export type ExpandedResult = ResultLenient & { content?: ContentValue | null | undefined };

/**
 * One page of results.
 *
 * @example
 * ```ts
 * const page: ResultPage = await client.runs.resultsPage(id, { limit: 20 });
 * if (page.next_cursor) await client.runs.resultsPage(id, { limit: 20, cursor: page.next_cursor });
 * ```
 */
export type ResultPage = z.infer<typeof ResultPageLenient>;

/**
 * The results of runs: paged lists, content and screenshots. Reached as
 * `client.runs.results(…)`, `client.runs.content(…)`, `client.runs.screenshot(…)`.
 *
 * @example
 * ```ts
 * const { url } = await client.runs.screenshot(runId, resultId);
 * ```
 */
export class Results {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Every result of a run, lazily, as an observable and async iterable. */
  list(runId: string, options: ResultsOptions = {}): PagedStream<ExpandedResult> {
    const format = contentFormatOf(options);
    const pageSize = pageSizeOf('results', PageQuery.shape.limit, options.pageSize ?? 100);
    return new PagedStream((cursor) => {
      if (typeof pageSize !== 'number') return pageSize;
      const page$ = this.page$(runId, {
        cursor,
        limit: pageSize,
        status: options.status,
        include: format === undefined ? undefined : 'content',
        format: format === 'default' ? undefined : format,
      });
      const checked$ =
        cursor === undefined && options.unfinished !== 'read'
          ? this.#transport
              .json$({ method: 'GET', path: `/runs/${segment(runId)}` }, RunLenient)
              .pipe(
                mergeMap((run) =>
                  isTerminalStatus(run.status) ? page$ : throwError(() => new RunNotFinishedError(run)),
                ),
              )
          : page$;
      // Without `include`, our server sends no `content`; a foreign server's stray one is not read.
      if (format === undefined) return checked$ as Observable<ItemPage<ExpandedResult>>;
      return checked$.pipe(mergeMap((page) => this.#fillContent$(runId, page, format)));
    }, options.signal);
  }

  /**
   * One page of a run's results, each with its content in `format`
   * (`include=content`; fetched one by one from a server that ignores it).
   */
  pageWithContent$(
    runId: string,
    query: { cursor?: string | undefined; limit?: number | undefined; status?: string | undefined },
    format: ResultContentFormat | 'default',
  ): Observable<ResultPage & { data: ExpandedResult[] }> {
    return this.page$(runId, {
      ...query,
      include: 'content',
      format: format === 'default' ? undefined : format,
    }).pipe(mergeMap((page) => this.#fillContent$(runId, page, format)));
  }

  /**
   * Fetches, four at a time, the content of results a server sent without it
   * (one that ignores `include=content`). A result with no content in the
   * format gets null: one missing format does not end the listing.
   */
  #fillContent$(
    runId: string,
    page: ResultPage,
    format: ResultContentFormat | 'default',
  ): Observable<ResultPage & { data: ExpandedResult[] }> {
    const lacking = page.data.filter((result) => !('content' in result));
    if (lacking.length === 0) return of(page as ResultPage & { data: ExpandedResult[] });
    const filled = new Map<string, ContentValue | null>();
    return from(lacking).pipe(
      mergeMap(
        (result) =>
          result.status === 'failed'
            ? of({ id: result.id, content: null })
            : this.content$(runId, result.id, { format: format === 'default' ? undefined : format }).pipe(
                map((body) => ({ id: result.id, content: body.content })),
                catchError((error: unknown) =>
                  error instanceof NotFoundError
                    ? of({ id: result.id, content: null })
                    : throwError(() => error),
                ),
              ),
        4,
      ),
      tap(({ id, content }) => filled.set(id, content)),
      toArray(),
      map(() => ({
        ...page,
        data: page.data.map((result) =>
          'content' in result ? result : { ...result, content: filled.get(result.id) ?? null },
        ) as ExpandedResult[],
      })),
    );
  }

  /** One page of a run's results. */
  page$(
    runId: string,
    query: {
      cursor?: string | undefined;
      limit?: number | undefined;
      status?: string | undefined;
      include?: 'content' | undefined;
      format?: ResultContentFormat | undefined;
    } = {},
  ): Observable<ResultPage> {
    return this.#transport.json$(
      { method: 'GET', path: `/runs/${segment(runId)}/results`, query },
      ResultPageLenient,
    );
  }

  /** The content of one result (`format`: markdown, html, text, links or json). */
  content$(
    runId: string,
    resultId: string,
    options: { format?: ResultContentFormat | undefined } = {},
  ): Observable<ResultContentLenient> {
    return this.#transport.json$(
      {
        method: 'GET',
        path: `/runs/${segment(runId)}/results/${segment(resultId)}/content`,
        query: { format: options.format },
      },
      ResultContentLenient,
    );
  }

  content(
    runId: string,
    resultId: string,
    options: { format?: ResultContentFormat | undefined; signal?: AbortSignal | undefined } = {},
  ): Promise<ResultContentLenient> {
    return lastValueAbortable(this.content$(runId, resultId, options), options.signal);
  }

  /** A signed URL to the result's screenshot (no API key needed to fetch it) and its expiry. */
  screenshot$(runId: string, resultId: string): Observable<ScreenshotAccessLenient> {
    return this.#transport.json$(
      { method: 'GET', path: `/runs/${segment(runId)}/results/${segment(resultId)}/screenshot` },
      ScreenshotAccessLenient,
    );
  }

  screenshot(
    runId: string,
    resultId: string,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<ScreenshotAccessLenient> {
    return lastValueAbortable(this.screenshot$(runId, resultId), options.signal);
  }

  /**
   * The screenshot itself (PNG bytes): its signed URL asked for, then fetched
   * without the API key, with the client's retries and time-out.
   */
  screenshotPng$(runId: string, resultId: string): Observable<Uint8Array> {
    return this.screenshot$(runId, resultId).pipe(
      mergeMap((access) =>
        this.#transport.send$({
          method: 'GET',
          path: `/runs/${segment(runId)}/results/${segment(resultId)}/screenshot (signed URL)`,
          signedUrl: access.url,
          bytes: true,
        }),
      ),
      map((response) => response.body as Uint8Array),
    );
  }
}

/** The content format asked for, in either spelling; undefined when no content is wanted. */
function contentFormatOf(options: ResultsOptions): ResultContentFormat | 'default' | undefined {
  if (options.content !== undefined) return options.content;
  if (options.expand?.includes('content')) return options.contentFormat ?? 'default';
  return undefined;
}
