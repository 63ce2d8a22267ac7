import { AuthenticationError, ConnectionError, RateLimitError, TimeoutError } from '@webdata/core';

/**
 * Where the connection to the service stands, as the Runs view's welcome
 * content shows it (`webdata.connection` context key):
 * no key set yet, not tried yet, answering, refusing the key, asking to wait
 * (429: too many requests, such as refused keys from this address), not
 * answering, or answering with another error.
 */
export type ConnectionState =
  | 'noKey'
  | 'connecting'
  | 'connected'
  | 'unauthorized'
  | 'rateLimited'
  | 'unreachable'
  | 'error';

/**
 * The state a failed request puts the connection in.
 *
 * @example
 * ```ts
 * stateAfter(new ConnectionError('connect ECONNREFUSED 127.0.0.1:8787')); // 'unreachable'
 * ```
 */
export function stateAfter(error: unknown): ConnectionState {
  if (error instanceof AuthenticationError) return 'unauthorized';
  if (error instanceof RateLimitError) return 'rateLimited';
  if (error instanceof ConnectionError || error instanceof TimeoutError) return 'unreachable';
  return 'error';
}
