import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { map, Observable } from 'rxjs';
import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import {
  AbortError,
  ApiError,
  ConnectionError,
  errorFromResponse,
  ResponseValidationError,
  TimeoutError,
} from './errors.js';
import { lastValueAbortable } from './internal/abort.js';
import { type BackoffPolicy, DEFAULT_BACKOFF, headerValue, parseRetryAfter } from './internal/backoff.js';
import { secretRedactor } from './internal/redact.js';
import { type RequestBudget, RequestPacer } from './internal/request-pacer.js';
import { retryWithBackoff } from './operators/retryWithBackoff.js';

/**
 * Where the client's log lines go. Lines never carry the API key or any
 * request header; fields are plain data (method, path, status, attempt, delay).
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl, apiKey, logger: { debug: (m, f) => console.debug(m, f) } });
 * ```
 */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
}

/**
 * How a {@link Transport} talks to the server.
 *
 * @example
 * ```ts
 * new Transport({ baseUrl: 'http://127.0.0.1:8787', apiKey, connections: 16, timeoutMs: 10_000 });
 * ```
 */
export interface TransportOptions {
  /** The server's origin (`http://127.0.0.1:8080`); `/api/v1` is added unless already there. */
  baseUrl: string;
  apiKey: string;
  /** A custom undici dispatcher (Agent, Pool, ProxyAgent, MockAgent); the client then does not close it. */
  dispatcher?: Dispatcher | undefined;
  /** Sockets per origin of the built-in keep-alive pool (default 128). */
  connections?: number | undefined;
  /** Time-out of one request attempt, ms (default 60 s); a long poll adds its wait to it. */
  timeoutMs?: number | undefined;
  /**
   * Retries of failed requests (default: 2 retries, 500 ms base, 8 s cap, full
   * jitter); a 429 is retried up to `rateLimitRetries` times (default 8).
   */
  retry?: (Partial<BackoffPolicy> & { rateLimitRetries?: number | undefined }) | undefined;
  /**
   * The client's request budget (default: 18 requests a second, bursts of 36,
   * 16 in flight): it never sends faster, and slows down further on a 429.
   */
  budget?: Partial<RequestBudget> | undefined;
  /** Extra headers sent with every request. */
  headers?: Record<string, string> | undefined;
  logger?: Logger | undefined;
  /** Source of retry jitter in [0, 1). */
  random?: (() => number) | undefined;
}

/**
 * One HTTP request, relative to `{baseUrl}/api/v1`.
 *
 * @example
 * ```ts
 * transport.send$({ method: 'GET', path: `/runs/${id}`, query: { wait: 10 }, allowNotModified: true });
 * ```
 */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below `/api/v1`, e.g. `/runs/run_1`. Path segments must already be encoded. */
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  headers?: Record<string, string> | undefined;
  /**
   * `safe` (default for GET and DELETE): retried on connection errors, time-outs,
   * 408, 429 and 5xx. `unsafe` (default for POST): retried only when the server
   * cannot have acted on it: a 429 or a refused connection.
   */
  retry?: 'safe' | 'unsafe' | undefined;
  timeoutMs?: number | undefined;
  /** Accept a 304 answer (conditional GET) instead of treating it as an error. */
  allowNotModified?: boolean | undefined;
  /** A long poll: the server holds it open, so it takes a turn of the rate budget but no concurrency slot. */
  longPoll?: boolean | undefined;
  /**
   * An absolute URL the server handed out (a signed screenshot URL): sent as
   * is, instead of `path` below `/api/v1`, and without the API key, which it
   * does not need and which must not reach another host. `path` then only
   * names the request in errors and logs.
   */
  signedUrl?: string | undefined;
  /** Read the body as bytes (`HttpResponse.body` is a `Uint8Array`) instead of JSON. */
  bytes?: boolean | undefined;
}

/**
 * A 2xx (or allowed 304) answer: status, headers, parsed JSON body (undefined when empty).
 *
 * @example
 * ```ts
 * transport.send$({ method: 'GET', path: '/runs' }).subscribe((response) => console.log(response.status, response.requestId));
 * ```
 */
export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  requestId: string | undefined;
}

const CONNECTION_CODES_NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * The HTTP layer: one keep-alive undici pool, the `x-api-key` header, time-outs,
 * retries with jittered backoff, and every non-2xx answer turned into the
 * client's error hierarchy in one place. Requests are cold observables:
 * nothing is sent until subscription, and unsubscribing aborts the request.
 *
 * @example
 * ```ts
 * import { Transport } from '@webdata/core';
 *
 * const transport = new Transport({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.WEBDATA_API_KEY! });
 * const page = await transport.request({ method: 'GET', path: '/runs', query: { limit: 5 } });
 * ```
 */
export class Transport {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #origin: string;
  readonly #prefix: string;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeoutMs: number;
  readonly #retry: BackoffPolicy;
  readonly #rateLimitRetries: number;
  readonly #pacer: RequestPacer;
  readonly #headers: Record<string, string>;
  readonly #random: (() => number) | undefined;
  /** Scrubs the API key from anything a server echoes back. */
  readonly redact: (text: string) => string;
  readonly logger: Logger;
  /** Requests sent (attempts, retries included), for benchmarks and diagnostics. */
  requestCount = 0;
  /** Answers that were 429 (rate limited), for benchmarks and diagnostics. */
  rateLimitedCount = 0;

  constructor(options: TransportOptions) {
    if (!options.apiKey) throw new TypeError('createClient: apiKey is required');
    // '127.0.0.1:8787' threw only "Invalid URL", and 'localhost:8787' parses with the scheme 'localhost:'.
    let url: URL | undefined;
    try {
      url = new URL(options.baseUrl);
    } catch {}
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new TypeError(
        `createClient: baseUrl must be an absolute http or https URL, such as http://127.0.0.1:8787 (got ${JSON.stringify(options.baseUrl)})`,
      );
    }
    const basePath = url.pathname.replace(/\/+$/, '');
    this.#prefix = basePath.endsWith('/api/v1') ? basePath : `${basePath}/api/v1`;
    this.#origin = url.origin;
    this.baseUrl = `${url.origin}${basePath}`;
    this.#apiKey = options.apiKey;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher =
      options.dispatcher ??
      new Agent({ connections: options.connections ?? 128, keepAliveTimeout: 10_000, pipelining: 1 });
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    const { rateLimitRetries, ...backoff } = options.retry ?? {};
    this.#retry = { ...DEFAULT_BACKOFF, ...backoff };
    this.#rateLimitRetries = rateLimitRetries ?? 8;
    this.#pacer = new RequestPacer(options.budget);
    this.#headers = options.headers ?? {};
    this.#random = options.random;
    this.redact = secretRedactor([options.apiKey]);
    this.logger = options.logger ?? {};
  }

  /**
   * The request as a cold observable of one {@link HttpResponse}, retried per
   * {@link HttpRequest.retry}. Unsubscribing aborts the attempt in flight.
   */
  send$(request: HttpRequest): Observable<HttpResponse> {
    const retry = request.retry ?? (request.method === 'POST' ? 'unsafe' : 'safe');
    return this.#attempt$(request).pipe(
      retryWithBackoff({
        ...this.#retry,
        maxRetries: Math.max(this.#retry.maxRetries, this.#rateLimitRetries),
        random: this.#random,
        shouldRetry: (error, attempt) =>
          isRetryable(error, retry) &&
          attempt < (isRateLimited(error) ? this.#rateLimitRetries : this.#retry.maxRetries),
        onRetry: (error, attempt, delayMs) =>
          this.logger.debug?.('webdata: retrying request', {
            method: request.method,
            path: request.path,
            attempt: attempt + 1,
            delayMs,
            error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          }),
      }),
    );
  }

  /** {@link send$} with the body parsed by `schema` (a lenient contract schema). */
  json$<S extends z.ZodType>(request: HttpRequest, schema: S): Observable<z.output<S>> {
    return this.send$(request).pipe(map((response) => parseBody(response, schema)));
  }

  /** Promise twin of {@link send$}: resolves with the parsed JSON body. */
  request(request: HttpRequest, options: { signal?: AbortSignal | undefined } = {}): Promise<unknown> {
    return lastValueAbortable(this.send$(request).pipe(map((response) => response.body)), options.signal);
  }

  /** A fresh idempotency key for a POST that creates a run. */
  newIdempotencyKey(): string {
    return `wdc_${randomUUID()}`;
  }

  /** Closes the built-in connection pool; a dispatcher given by the caller is left open. */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  toString(): string {
    return `Transport(${this.baseUrl})`;
  }

  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl };
  }

  [inspect.custom](): string {
    return this.toString();
  }

  #attempt$(request: HttpRequest): Observable<HttpResponse> {
    return new Observable<HttpResponse>((subscriber) => {
      // A subscriber that already left (take, first) must not cause a request.
      if (subscriber.closed) return;
      const controller = new AbortController();
      let timedOut = false;
      let finished = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeoutMs = request.timeoutMs ?? this.#timeoutMs;
      // The turn comes first: time spent waiting for it is not the request's time-out.
      this.#pacer
        .acquire({ holdsSlot: !request.longPoll, signal: controller.signal })
        .then((release) => {
          timer = setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs);
          return this.#dispatch(request, controller.signal).finally(release);
        })
        .then(
          ({ response, bytes }) => {
            const text = () => new TextDecoder().decode(bytes);
            finished = true;
            clearTimeout(timer);
            const responseHeaders = response.headers as Record<string, string | string[] | undefined>;
            const requestId = headerValue(responseHeaders, 'x-request-id');
            const status = response.statusCode;
            const retryAfterMs = parseRetryAfter(responseHeaders);
            if (status === 429) {
              this.rateLimitedCount++;
              this.#pacer.onRateLimited(retryAfterMs);
            } else this.#pacer.onAnswered();
            if (status >= 200 && status < 300) {
              subscriber.next({
                status,
                headers: responseHeaders,
                body: request.bytes ? bytes : readJson(text(), status, requestId),
                requestId,
              });
              subscriber.complete();
            } else if (status === 304 && request.allowNotModified) {
              subscriber.next({ status, headers: responseHeaders, body: undefined, requestId });
              subscriber.complete();
            } else {
              let errorBody: unknown = text();
              try {
                errorBody = errorBody ? JSON.parse(errorBody as string) : undefined;
              } catch {
                // a foreign server's plain-text error page: kept as text
              }
              subscriber.error(
                errorFromResponse({ status, body: errorBody, requestId, retryAfterMs, redact: this.redact }),
              );
            }
          },
          (error: unknown) => {
            finished = true;
            clearTimeout(timer);
            subscriber.error(this.#transportError(error, request, timedOut, timeoutMs));
          },
        )
        .catch((error: unknown) => subscriber.error(error));
      return () => {
        clearTimeout(timer);
        if (!finished) controller.abort();
      };
    });
  }

  /** Sends one attempt and reads its whole body. */
  async #dispatch(
    request: HttpRequest,
    signal: AbortSignal,
  ): Promise<{ response: Dispatcher.ResponseData; bytes: Uint8Array }> {
    this.requestCount++;
    const signed = request.signedUrl === undefined ? undefined : new URL(request.signedUrl);
    // A signed URL needs no key; the caller's own headers go only to the server's origin.
    const headers: Record<string, string> = {
      accept: request.bytes ? '*/*' : 'application/json',
      'user-agent': 'webdata-core/0.1.0',
      ...(signed && signed.origin !== this.#origin ? {} : this.#headers),
      ...request.headers,
    };
    if (!signed) headers['x-api-key'] = this.#apiKey;
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const response = await this.#dispatcher.request({
      origin: signed?.origin ?? this.#origin,
      path: signed ? `${signed.pathname}${signed.search}` : this.#pathWithQuery(request),
      method: request.method,
      headers,
      body,
      signal,
    });
    return { response, bytes: new Uint8Array(await response.body.arrayBuffer()) };
  }

  #pathWithQuery(request: HttpRequest): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) params.set(key, String(value));
    }
    const query = params.toString();
    return `${this.#prefix}${request.path}${query ? `?${query}` : ''}`;
  }

  #transportError(error: unknown, request: HttpRequest, timedOut: boolean, timeoutMs: number): Error {
    if (error instanceof ResponseValidationError || error instanceof ApiError) return error;
    const what = `${request.method} ${request.path}`;
    if (timedOut) return new TimeoutError(`${what} timed out after ${timeoutMs} ms`);
    const code = errorCode(error);
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return new TimeoutError(`${what} timed out (${code})`);
    }
    if (code === 'UND_ERR_ABORTED' || (error as Error | null)?.name === 'AbortError') {
      return new AbortError(`${what} was aborted`);
    }
    const message = error instanceof Error ? this.redact(error.message) : 'unknown error';
    return new ConnectionError(`${what} failed: ${code ?? 'connection error'} (${message})`, {
      systemCode: code,
      cause: error,
    });
  }
}

function errorCode(error: unknown): string | undefined {
  const direct = (error as { code?: unknown } | null)?.code;
  if (typeof direct === 'string') return direct;
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof cause === 'string' ? cause : undefined;
}

function isRateLimited(error: unknown): boolean {
  return error instanceof ApiError && error.status === 429;
}

function isRetryable(error: unknown, retry: 'safe' | 'unsafe'): boolean {
  if (error instanceof ApiError) {
    if (error.status === 429) return true;
    if (retry === 'unsafe') return false;
    return error.status === 408 || (error.status >= 500 && error.status !== 501);
  }
  if (error instanceof ConnectionError) {
    return retry === 'safe' || CONNECTION_CODES_NEVER_SENT.has(error.systemCode ?? '');
  }
  if (error instanceof TimeoutError) return retry === 'safe';
  return false;
}

function readJson(text: string, status: number, requestId: string | undefined): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ResponseValidationError(`the server sent a body that is not JSON (HTTP ${status})`, {
      status,
      requestId,
      cause,
    });
  }
}

/**
 * Parses a response body with a (lenient) contract schema; a mismatch is a
 * {@link ResponseValidationError} carrying zod's issues.
 *
 * @example
 * ```ts
 * import { RunLenient } from '@webdata/contract';
 * transport.send$({ method: 'GET', path: `/runs/${id}` }).pipe(map((response) => parseBody(response, RunLenient)));
 * ```
 */
export function parseBody<S extends z.ZodType>(response: HttpResponse, schema: S): z.output<S> {
  const parsed = schema.safeParse(response.body);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  throw new ResponseValidationError(
    `the server's answer does not match the contract${first ? ` at ${first.path.join('.') || '(root)'}: ${first.message}` : ''}`,
    { status: response.status, issues: parsed.error.issues, requestId: response.requestId },
  );
}
