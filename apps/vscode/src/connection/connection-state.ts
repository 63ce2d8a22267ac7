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

/**
 * What is known of the API key in use: the service took it (a request
 * succeeded with it), refused it (401), there is none, or it was not tried
 * yet (just set, or the service did not answer). The walkthrough's "Set the
 * API key" step ticks on `accepted` only: a key kept in secret storage that
 * the service refuses is not a step done.
 */
export type KeyVerdict = 'accepted' | 'refused' | 'none' | 'untried';

/**
 * The verdict on the key once the connection reached `state`, from the
 * verdict before: a state that says nothing of the key (no answer, asked to
 * wait, another error, connecting again with the same key) keeps it.
 *
 * @example
 * ```ts
 * keyVerdictAfter('accepted', 'unreachable'); // 'accepted': the service went away, the key is still good
 * keyVerdictAfter('accepted', 'unauthorized'); // 'refused'
 * ```
 */
export function keyVerdictAfter(verdict: KeyVerdict, state: ConnectionState): KeyVerdict {
  switch (state) {
    case 'connected':
      return 'accepted';
    case 'unauthorized':
      return 'refused';
    case 'noKey':
      return 'none';
    default:
      return verdict;
  }
}
