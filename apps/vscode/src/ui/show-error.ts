import { ApiError, AuthenticationError, RateLimitError, RequestValidationError } from '@webdata/core';
import * as vscode from 'vscode';
import { stateAfter } from '../connection/connection-state.js';
import { StaleLoadError } from '../runs/runs-loader.js';
import { CHANGE_ADDRESS, errorActions, notAService, SET_KEY, SHOW_LOG, TRY_AGAIN } from './error-actions.js';
import { describeError, type Log } from './log.js';

/**
 * Shows a failed action as an error message with the actions that can mend
 * it (set the key, fix the address, read the log), and logs it. Never silent.
 * Given `tryAgain`, a failure that may pass (no answer, asked to wait) offers
 * **Try Again**, which calls it: the action again as it was asked. Given `creating` (the address
 * the request went to), the action creates a run: a 404 or 405 says no Web Data service is there,
 * and **Change the Address…** comes first.
 *
 * @example
 * ```ts
 * await client.runs.cancel(id).catch((error) => showError(log, 'Could not cancel the run', error));
 * ```
 */
export async function showError(
  log: Log,
  what: string,
  error: unknown,
  options: { tryAgain?: () => unknown; creating?: { address: string } } = {},
): Promise<void> {
  // A load the connection outran (the address or key changed meanwhile): nothing went wrong now.
  if (error instanceof StaleLoadError) return log.info(`${what}: ${error.message}`);
  log.error(what, error, { shown: true });
  const creating = options.creating !== undefined;
  const actions = errorActions(error, options.tryAgain !== undefined, creating);
  const message =
    creating && notAService(error)
      ? `${what}: ${options.creating!.address} is not a Web Data service (it answered ${(error as ApiError).status} to POST /api/v1/runs). Check the address: the service's own, without /api/v1.`
      : `${what}: ${explain(error)}`;
  // An error notification with buttons stays on screen until closed (VS Code makes it sticky), and one
  // saying the key was refused, or that none is set, stayed up after a good key was set; one saying the
  // service does not answer stayed up after it was back. Said as a warning, it hides after a while; the
  // status bar and the Runs view say it exactly as long as it is so.
  const chosen =
    error instanceof RateLimitError || actions.includes(SET_KEY) || stateAfter(error) === 'unreachable'
      ? await vscode.window.showWarningMessage(message, ...actions)
      : await vscode.window.showErrorMessage(message, ...actions);
  if (chosen === TRY_AGAIN) await options.tryAgain?.();
  if (chosen === SET_KEY) await vscode.commands.executeCommand('webdata.setApiKey');
  if (chosen === CHANGE_ADDRESS) await vscode.commands.executeCommand('webdata.openSettings');
  if (chosen === SHOW_LOG) log.show();
}

/** What went wrong, in words for the message: the service's own message, and the first detail of a 400. */
function explain(error: unknown): string {
  if (error instanceof AuthenticationError) return 'the service refused the API key (401).';
  if (stateAfter(error) === 'unreachable')
    return `the service does not answer (${describeError(error)}). The status bar says when it is back.`;
  if (error instanceof RequestValidationError) return error.message;
  if (error instanceof ApiError) {
    const detail = error.details?.[0] as { path?: unknown; message?: unknown } | undefined;
    const where = detail && Array.isArray(detail.path) ? detail.path.join('.') : '';
    const extra =
      detail && typeof detail.message === 'string' ? ` (${where ? `${where}: ` : ''}${detail.message})` : '';
    return `${error.message}${extra}`;
  }
  return describeError(error);
}
