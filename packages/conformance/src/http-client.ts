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

/**
 * A minimal HTTP client for black-box tests: it sends exactly what it is told
 * (so malformed requests can be made too) and never throws on a status.
 *
 * @example
 * ```ts
 * const call = apiClient(target.baseUrl, target.apiKey);
 * const { status, body } = await call('GET', '/api/v1/runs');
 * ```
 */
export function apiClient(baseUrl: string, apiKey: string) {
  return async function call(
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
  };
}

export type ApiCall = ReturnType<typeof apiClient>;
