import { ApiError, AuthenticationError, RateLimitError } from '@webdata/core';
import { stateAfter } from '../connection/connection-state.js';

export const TRY_AGAIN = 'Try Again';
export const SET_KEY = 'Set API Key…';
/** Opens the extension's settings, the address first: the Runs view's row of the same name does too. */
export const CHANGE_ADDRESS = 'Change the Address…';
export const SHOW_LOG = 'Show Log';

/**
 * The buttons of a failed action's message: what can mend it (set the key, fix the address), the
 * log, and, when the action can be done again as it was asked and the failure may pass (the
 * service did not answer, or asked to wait), **Try Again** first. A run that could not be started
 * because the service was down lost every answer given for it (the URLs picked, the query, the
 * fields), and Open Settings was all the message offered. `creating`: the action creates (starts a
 * run), so a 404 or 405 says no Web Data service is at the address ({@link notAService}): the way
 * out is another address, then the same request again.
 *
 * @example
 * ```ts
 * errorActions(new ConnectionError('connect ECONNREFUSED 127.0.0.1:8787'), true);
 * // ['Try Again', 'Change the Address…', 'Show Log']
 * errorActions(new NotFoundError({ status: 404, code: 'not_found', message: 'HTTP 404' }), true, true);
 * // ['Change the Address…', 'Try Again', 'Show Log']
 * ```
 */
export function errorActions(error: unknown, canTryAgain: boolean, creating = false): string[] {
  const actions: string[] = [];
  const state = stateAfter(error);
  const notConnected =
    error instanceof Error && error.name === 'NotConnectedError'
      ? (error as Error & { state?: string }).state
      : undefined;
  if (creating && notAService(error)) {
    // Another address, then the same request again: the URLs, the query and the fields are kept.
    actions.push(CHANGE_ADDRESS);
    if (canTryAgain) actions.push(TRY_AGAIN);
  } else {
    if (canTryAgain && (state === 'unreachable' || error instanceof RateLimitError)) actions.push(TRY_AGAIN);
    if (error instanceof AuthenticationError || notConnected === 'noKey') actions.push(SET_KEY);
    else if (notConnected !== undefined || state === 'unreachable') actions.push(CHANGE_ADDRESS);
  }
  actions.push(SHOW_LOG);
  return actions;
}

/**
 * Whether an answer to a request that creates (`POST /api/v1/runs`, which a Web Data service always
 * has) says the address is not a Web Data service's: a 404 or 405 (a web server or another API at
 * that address; or the address has a path of its own, such as `/api/v1`, which the client adds).
 * Said as "Not Found" with nothing but Show Log, it left no way out.
 *
 * @example
 * ```ts
 * notAService(new NotFoundError({ status: 404, code: 'not_found', message: 'HTTP 404' })); // true
 * ```
 */
export function notAService(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 405);
}
