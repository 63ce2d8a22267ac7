import { AuthenticationError, RateLimitError } from '@webdata/core';
import { stateAfter } from '../connection/connection-state.js';

export const TRY_AGAIN = 'Try Again';
export const SET_KEY = 'Set API Key…';
export const OPEN_SETTINGS = 'Open Settings';
export const SHOW_LOG = 'Show Log';

/**
 * The buttons of a failed action's message: what can mend it (set the key, fix the address), the
 * log, and, when the action can be done again as it was asked and the failure may pass (the
 * service did not answer, or asked to wait), **Try Again** first. A run that could not be started
 * because the service was down lost every answer given for it (the URLs picked, the query, the
 * fields), and Open Settings was all the message offered.
 *
 * @example
 * ```ts
 * errorActions(new ConnectionError('connect ECONNREFUSED 127.0.0.1:8787'), true);
 * // ['Try Again', 'Open Settings', 'Show Log']
 * ```
 */
export function errorActions(error: unknown, canTryAgain: boolean): string[] {
  const actions: string[] = [];
  const state = stateAfter(error);
  const notConnected =
    error instanceof Error && error.name === 'NotConnectedError'
      ? (error as Error & { state?: string }).state
      : undefined;
  if (canTryAgain && (state === 'unreachable' || error instanceof RateLimitError)) actions.push(TRY_AGAIN);
  if (error instanceof AuthenticationError || notConnected === 'noKey') actions.push(SET_KEY);
  else if (notConnected !== undefined || state === 'unreachable') actions.push(OPEN_SETTINGS);
  actions.push(SHOW_LOG);
  return actions;
}
