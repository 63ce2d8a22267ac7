import { inspect } from 'node:util';
import type {
  CrawlRequest,
  DeepCrawlRequest,
  ExtractRequest,
  SearchAnswerLenient,
  SearchRequest,
} from '@webdata/contract';
import type { Observable, SchedulerLike } from 'rxjs';
import type { z } from 'zod';
import { lastValueAbortable } from './internal/abort.js';
import type { ServerCapabilities } from './internal/capabilities.js';
import { type PollOptions, RunWatcher } from './internal/run-watcher.js';
import type { PagedStream } from './paged-stream.js';
import { Results } from './resources/results.js';
import { type CallOptions, Runs, type TypedExtractRequest } from './resources/runs.js';
import {
  type CollectionPage,
  type DocumentContent,
  type DocumentOptions,
  Search,
  type SearchAllRequest,
  type SearchHit,
} from './resources/search.js';
import type { RunEvent, RunOptions } from './run-events.js';
import { Transport, type TransportOptions } from './transport.js';

/**
 * Options of {@link createClient}.
 *
 * @example
 * ```ts
 * const client = createClient({
 *   baseUrl: 'http://127.0.0.1:8080',
 *   apiKey: process.env.WEBDATA_API_KEY!,
 *   timeoutMs: 30_000,
 *   retry: { maxRetries: 4 },
 *   poll: { initialMs: 200, maxMs: 5_000, longPollSeconds: 20 },
 * });
 * ```
 */
export interface ClientOptions extends TransportOptions {
  /** Polling of runs: adaptive schedule, long poll, batching. */
  poll?: PollOptions | undefined;
  /** The rxjs scheduler for polling delays and deadlines (tests pass a virtual one). */
  scheduler?: SchedulerLike | undefined;
}

/**
 * The webdata client. Runs are cold observables of {@link RunEvent}s; every
 * one-shot call is a promise taking an `AbortSignal`, with an observable twin
 * ending in `$`. Make one per server and reuse it: it holds the keep-alive
 * pool and the shared pollers.
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'wd_…' });
 * client.crawl({ urls: ['https://example.org/'] }).subscribe((event) => console.log(event.type));
 * ```
 */
export class WebDataClient {
  /** Runs: create, watch, follow, results, content, screenshot, list, get, cancel, retry, delete. */
  readonly runs: Runs;
  /** Collections of indexed documents, and a document's full content (a search hit's `document_id`). */
  readonly collections: {
    list(query?: { limit?: number; cursor?: string }, options?: CallOptions): Promise<CollectionPage>;
    list$(query?: { limit?: number; cursor?: string }): Observable<CollectionPage>;
    /**
     * The whole page a search hit names, as Markdown (when the server has it) or text.
     * An unknown collection or document is a `NotFoundError`.
     *
     * @example
     * ```ts
     * const [hit] = (await client.search({ query: 'retry policy', collection: 'docs' })).data;
     * const { content } = await client.collections.document('docs', hit!.document_id!);
     * ```
     */
    document(
      collection: string,
      documentId: string,
      options?: DocumentOptions & CallOptions,
    ): Promise<DocumentContent>;
    /** Observable twin of {@link document}. */
    document$(collection: string, documentId: string, options?: DocumentOptions): Observable<DocumentContent>;
  };
  /** What the client learnt about the server (long poll, batch reads). */
  readonly capabilities: ServerCapabilities = {
    longPoll: undefined,
    batch: undefined,
    batchLongPoll: undefined,
  };
  readonly #transport: Transport;
  readonly #search: Search;
  readonly #watcher: RunWatcher;

  constructor(options: ClientOptions) {
    this.#transport = new Transport(options);
    this.#watcher = new RunWatcher(this.#transport, this.capabilities, options.poll, options.scheduler);
    this.runs = new Runs(this.#transport, this.#watcher, new Results(this.#transport), options.scheduler);
    this.#search = new Search(this.#transport);
    const search = this.#search;
    this.collections = {
      list: (query = {}, callOptions = {}) =>
        lastValueAbortable(search.collections$(query), callOptions.signal),
      list$: (query = {}) => search.collections$(query),
      document: (collection, documentId, { signal, ...options } = {}) =>
        lastValueAbortable(search.document$(collection, documentId, options), signal),
      document$: (collection, documentId, options = {}) => search.document$(collection, documentId, options),
    };
  }

  /** The server's base URL (never the key). */
  get baseUrl(): string {
    return this.#transport.baseUrl;
  }

  /** HTTP requests sent so far, retries included. */
  get requestCount(): number {
    return this.#transport.requestCount;
  }

  /** Answers that were 429 (rate limited) so far; the client slowed down and retried each. */
  get rateLimitedCount(): number {
    return this.#transport.rateLimitedCount;
  }

  /** Runs currently watched by a live shared poller. */
  get activeWatches(): number {
    return this.#watcher.activeWatches;
  }

  /**
   * Extracts data from URLs as a run: on subscription creates it, then emits
   * `created`, each distinct `status`, each `result`, and `completed`. With a
   * zod object `schema`, its JSON Schema is sent and every result's `data` is
   * parsed with it: `event.result.data` is `z.infer<typeof schema>`, and data
   * that does not parse comes as an `invalid-result` event.
   *
   * @example
   * ```ts
   * const Product = z.object({ name: z.string(), price: z.number() });
   * client.extract({ urls: ['https://shop.example/p/1'], query: 'the product', schema: Product })
   *   .subscribe((event) => { if (event.type === 'result') console.log(event.result.data?.price); });
   * ```
   */
  extract<S extends z.ZodType>(
    body: TypedExtractRequest<S>,
    options?: RunOptions,
  ): Observable<RunEvent<z.output<S>>>;
  extract(body: ExtractRequest, options?: RunOptions): Observable<RunEvent>;
  extract(body: ExtractRequest | TypedExtractRequest<z.ZodType>, options: RunOptions = {}) {
    return this.runs.lifecycle('extract', body, options);
  }

  /**
   * Crawls known URLs (`urls`) or a site from a start page (`url`) as a run.
   *
   * @example
   * ```ts
   * const { results } = await collectRun(client.crawl({ url: 'https://docs.example/', limit: 20 }));
   * ```
   */
  crawl(body: CrawlRequest, options: RunOptions = {}): Observable<RunEvent> {
    return this.runs.lifecycle('crawl', body, options) as Observable<RunEvent>;
  }

  /**
   * Crawls a larger site area breadth-first from `url` as a run.
   *
   * @example
   * ```ts
   * client.deepCrawl({ url: 'https://blog.example/', max_depth: 2, limit: 200 }, { deadlineMs: 600_000 })
   *   .subscribe((event) => { if (event.type === 'status') console.log(event.run.stats?.total); });
   * ```
   */
  deepCrawl(body: DeepCrawlRequest, options: RunOptions = {}): Observable<RunEvent> {
    return this.runs.lifecycle('deep-crawl', body, options) as Observable<RunEvent>;
  }

  /**
   * Searches a collection; hits best first, with a cursor to the next page.
   *
   * @example
   * ```ts
   * const { data } = await client.search({ query: 'retry policy', collection: 'docs', limit: 5 });
   * ```
   */
  search(body: SearchRequest, options: CallOptions = {}): Promise<SearchAnswerLenient> {
    return this.#search.search(body, options);
  }

  /** Observable twin of {@link search}. */
  search$(body: SearchRequest): Observable<SearchAnswerLenient> {
    return this.#search.search$(body);
  }

  /**
   * Every hit of a search across pages, lazily (observable and async iterable),
   * `pageSize` hits a request. A question matches on any of its words, so most
   * of a collection can match: stop when you have enough (`break`, or rxjs
   * `take(n)`), and no further page is asked for.
   *
   * @example
   * ```ts
   * for await (const hit of client.searchAll({ query: 'install', pageSize: 50 })) console.log(hit.url);
   * ```
   */
  searchAll(body: SearchAllRequest, options: CallOptions = {}): PagedStream<SearchHit> {
    return this.#search.searchAll(body, options);
  }

  /** Closes the keep-alive pool (a dispatcher passed in by the caller is left open). */
  close(): Promise<void> {
    return this.#transport.close();
  }

  toString(): string {
    return `WebDataClient(${this.baseUrl})`;
  }

  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl };
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/**
 * Makes a client for one server. The API key is sent as `x-api-key` and never
 * appears in an error message, a log line, `toString`, `JSON.stringify` or `util.inspect`.
 *
 * @example
 * ```ts
 * import { createClient } from '@webdata/core';
 *
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.WEBDATA_API_KEY! });
 * const runs = await client.runs.list({ limit: 10 });
 * await client.close();
 * ```
 */
export function createClient(options: ClientOptions): WebDataClient {
  return new WebDataClient(options);
}
