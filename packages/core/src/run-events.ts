import {
  type ContentValue,
  type ResultContentFormat,
  ResultLenient,
  type RunLenient,
} from '@webdata/contract';
import type { z } from 'zod';
import type { ResultDataError } from './errors.js';

const ResultFields = ResultLenient.omit({ data: true, content: true });

/**
 * One result of a run, read leniently, whose `data` is the caller's type:
 * `z.infer<typeof schema>` when the run was created with a zod schema (and
 * the data parsed with it), `null` for a page that failed.
 *
 * @example
 * ```ts
 * const Product = z.object({ name: z.string(), price: z.number() });
 * client.extract({ urls, schema: Product }).subscribe((event) => {
 *   if (event.type === 'result' && event.result.data) console.log(event.result.data.price.toFixed(2));
 * });
 * ```
 */
export type RunResult<T = Record<string, unknown>> = z.infer<typeof ResultFields> & {
  data: T | null;
  /** The result's content, when the run stream was asked for it (`{ content: 'markdown' }`). */
  content?: ContentValue | null | undefined;
};

/**
 * What a run stream emits, tagged by `type`, so one subscriber can render
 * progress and collect results:
 * - `created`: the run as its creation returned it (only for streams that create);
 * - `status`: each distinct snapshot until, and including, the terminal one;
 * - `result`: each result, after the run is terminal, in the server's order;
 * - `invalid-result`: a result whose `data` did not parse with the caller's zod schema;
 * - `completed`: the last event, with the terminal run (which may be
 *   `incomplete`, or `cancelled`) and how many results were passed on.
 *
 * @example
 * ```ts
 * client.crawl({ urls }).subscribe((event) => {
 *   switch (event.type) {
 *     case 'status': progress(event.run.stats); break;
 *     case 'result': rows.push(event.result); break;
 *     case 'completed': console.log('done:', event.run.status, event.results); break;
 *   }
 * });
 * ```
 */
export type RunEvent<T = Record<string, unknown>> =
  | { type: 'created'; run: RunLenient }
  | { type: 'status'; run: RunLenient }
  | { type: 'result'; result: RunResult<T> }
  | { type: 'invalid-result'; result: ResultLenient; error: ResultDataError }
  | { type: 'completed'; run: RunLenient; results: number; invalidResults: number };

/**
 * Options of every run stream (`extract`, `crawl`, `deepCrawl`, `runs.create`, `runs.follow`).
 *
 * @example
 * ```ts
 * client.deepCrawl({ url }, { deadlineMs: 120_000, cancelOnUnsubscribe: true, includeCancelledResults: true });
 * ```
 */
export interface RunOptions {
  /** Time for the run to reach a terminal status, from subscription; then a `RunTimeoutError`. */
  deadlineMs?: number | undefined;
  /**
   * Cancel the run on the server when the stream ends before the run is terminal (unsubscribe, deadline, abort).
   * Ended while its creation was unanswered, the stream sends that creation again with its
   * `Idempotency-Key`, which answers the run the first one made (or makes it), and cancels that run.
   */
  cancelOnUnsubscribe?: boolean | undefined;
  /** Read the results a `cancelled` run produced before it was stopped (default: none). */
  includeCancelledResults?: boolean | undefined;
  /** Only results in this state (default: all). */
  resultStatus?: 'succeeded' | 'failed' | undefined;
  /** Results per page when reading them (default 100). */
  pageSize?: number | undefined;
  /**
   * Carry each result's content in this format (`'markdown'`, `'html'`,
   * `'text'`, `'links'`, `'json'`, or `'default'`: the run's first), read with
   * the results in one paged request (`include=content`); null where a result
   * has none in it. A crawl or deep crawl created by the stream stores that
   * format too when its `formats` leave it out (else every content is null).
   */
  content?: ResultContentFormat | 'default' | undefined;
  /** `emit` (default): an `invalid-result` event; `error`: the stream errors with `ResultDataError`. */
  onInvalidResult?: 'emit' | 'error' | undefined;
  /** Sent as `Idempotency-Key` on creation; by default the client makes one, so creation can be retried safely. */
  idempotencyKey?: string | undefined;
  /** Aborting errors the stream with `AbortError` (`TimeoutError` for `AbortSignal.timeout()`), and cancels the run with `cancelOnUnsubscribe`. */
  signal?: AbortSignal | undefined;
}

/**
 * Every event of a run collected into one value: the promise twin of a run stream.
 *
 * @example
 * ```ts
 * const { run, results } = await collectRun(client.crawl({ urls: ['https://example.org/'] }));
 * ```
 */
export interface RunOutcome<T = Record<string, unknown>> {
  run: RunLenient;
  results: RunResult<T>[];
  invalidResults: { result: ResultLenient; error: ResultDataError }[];
}
