import {
  type ResultContentFormat,
  ResultContentLenient,
  type ResultLenient,
  ResultPageLenient,
  ScreenshotAccessLenient,
} from '@webdata/contract';
import { from, map, mergeMap, type Observable, of, toArray } from 'rxjs';
import type { z } from 'zod';
import { lastValueAbortable } from '../internal/abort.js';
import { segment } from '../internal/encode.js';
import { PagedStream } from '../paged-stream.js';
import type { Transport } from '../transport.js';

/**
 * Options of {@link Results.list}.
 *
 * @example
 * ```ts
 * client.runs.results(id, { status: 'succeeded', pageSize: 200, expand: ['content'] });
 * ```
 */
export interface ResultsOptions {
  /** Only results in this state. */
  status?: 'succeeded' | 'failed' | undefined;
  /** Results per page (1–200, default 100). */
  pageSize?: number | undefined;
  /**
   * Client-side expansion (the server has no expand parameter): `['content']`
   * fetches each succeeded result's content alongside it, four at a time, into `content`.
   */
  expand?: 'content'[] | undefined;
  /** Format of the expanded content (default: the server's default for the run). */
  contentFormat?: ResultContentFormat | undefined;
  /** Aborts the async iteration (observable subscribers unsubscribe instead). */
  signal?: AbortSignal | undefined;
}

/**
 * A result, with its content when `expand: ['content']` asked for it.
 *
 * @example
 * ```ts
 * for await (const r of client.runs.results(id, { expand: ['content'], contentFormat: 'markdown' })) {
 *   console.log(r.url, r.content?.content);
 * }
 * ```
 */
export type ExpandedResult = ResultLenient & { content?: ResultContentLenient | undefined };

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
    const expandContent = options.expand?.includes('content') ?? false;
    return new PagedStream((cursor) => {
      const page$ = this.page$(runId, { cursor, limit: options.pageSize ?? 100, status: options.status });
      if (!expandContent) return page$;
      return page$.pipe(
        mergeMap((page) =>
          from(page.data.map((result, index) => ({ result, index }))).pipe(
            mergeMap(
              ({ result, index }) =>
                result.status === 'failed'
                  ? of({ index, item: result as ExpandedResult })
                  : this.content$(runId, result.id, { format: options.contentFormat }).pipe(
                      map((content) => ({ index, item: { ...result, content } as ExpandedResult })),
                    ),
              4,
            ),
            toArray(),
            map((items) => ({
              ...page,
              data: items.sort((a, b) => a.index - b.index).map(({ item }) => item),
            })),
          ),
        ),
      );
    }, options.signal);
  }

  /** One page of a run's results. */
  page$(
    runId: string,
    query: { cursor?: string | undefined; limit?: number | undefined; status?: string | undefined } = {},
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
}
