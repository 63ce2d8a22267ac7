import { request } from 'undici';

/** One answer of the server under test, its body parsed as JSON when it says it is JSON. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
  /** The body as text, exactly as sent. */
  text: string;
  /** The body as bytes (for images). */
  bytes: Buffer;
}

/** Options of one call. */
export interface CallOptions {
  /** A JSON value (sent as `application/json`), or raw text/bytes sent as they are. */
  body?: unknown;
  /** Extra headers; they win over the defaults. */
  headers?: Record<string, string>;
  /** The API key to send; `null` sends none. Defaults to the client's key. */
  apiKey?: string | null;
}

/** True for a `content-type` that announces JSON. */
export function isJsonType(contentType: string | string[] | undefined): boolean {
  return /\bjson\b/i.test(String(contentType ?? ''));
}

/** Options of a client. */
export interface ApiClientOptions {
  /**
   * Wait out a 429 (its `Retry-After`, 1 s when absent, at most 10 s) and send
   * the request again, up to 10 times (default true). A server under test
   * keeps its production rate limit (20 requests/s a key by default for ours),
   * which the suite's bursts pass: a 429 there says nothing about the rule a
   * test checks. The rate-limit test turns this off to see the 429 itself.
   */
  retryRateLimited?: boolean;
  /** How to wait, in milliseconds (tests of this client pass a fake one). */
  sleep?: (ms: number) => Promise<void>;
}

const RATE_LIMIT_RETRIES = 10;
const MAX_RETRY_AFTER_MS = 10_000;

/** The wait a 429 asks for: `Retry-After` seconds, 1 s when absent or unreadable, at most 10 s. */
export function retryAfterMs(header: string | string[] | undefined): number {
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : 1000;
}

/**
 * A minimal HTTP client for black-box tests: it sends exactly what it is told
 * (so malformed requests can be made too) and never throws on a status. A 429
 * is waited out and the request sent again (see {@link ApiClientOptions}).
 *
 * @example
 * ```ts
 * const call = apiClient(target.baseUrl, target.apiKey);
 * const { status, body } = await call('GET', '/api/v1/runs');
 * ```
 */
export function apiClient(baseUrl: string, apiKey: string, clientOptions: ApiClientOptions = {}) {
  const retryRateLimited = clientOptions.retryRateLimited ?? true;
  const sleep =
    clientOptions.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async function call(
    method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH',
    path: string,
    options: CallOptions = {},
  ): Promise<ApiResponse> {
    for (let attempt = 0; ; attempt++) {
      const response = await send(method, path, options);
      if (response.status !== 429 || !retryRateLimited || attempt >= RATE_LIMIT_RETRIES) return response;
      await sleep(retryAfterMs(response.headers['retry-after']));
    }
  };

  async function send(
    method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH',
    path: string,
    options: CallOptions = {},
  ): Promise<ApiResponse> {
    const key = options.apiKey === undefined ? apiKey : options.apiKey;
    const { body } = options;
    const raw = typeof body === 'string' || Buffer.isBuffer(body);
    const headers: Record<string, string> = {
      ...(key !== null ? { 'x-api-key': key } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    };
    const response = await request(/^https?:/.test(path) ? path : `${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : raw ? (body as string | Buffer) : JSON.stringify(body),
    });
    const bytes = Buffer.from(await response.body.arrayBuffer());
    const text = bytes.toString('utf8');
    let parsed: unknown = text;
    if (isJsonType(response.headers['content-type']) && text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        // Left as text: the test that reads it will say the body is not JSON.
      }
    }
    return { status: response.statusCode, headers: response.headers, body: parsed, text, bytes };
  }
}

export type ApiCall = ReturnType<typeof apiClient>;
