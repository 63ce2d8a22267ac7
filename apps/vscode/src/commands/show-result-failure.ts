import * as vscode from 'vscode';
import { failureRemedy } from '../runs/failure-remedy.js';
import type { Command } from '../services.js';
import { resultFailure } from '../tree/describe-run.js';
import { resultOf } from '../tree/node-argument.js';
import { COPY_URL, EXTRACT_AGAIN, failureActions, OPEN_PAGE, RETRY_RUN } from '../ui/failure-actions.js';

/**
 * Show Why It Failed: what a click on a failed result does (it has nothing to
 * open). An error message with the page, the service's reason and its code,
 * and what to do about it ({@link failureRemedy}, {@link failureActions}): for
 * a failure that will repeat (a missing page, a login, a refused address…),
 * what mends it and no Retry Run; else Retry Run (which runs again only the
 * pages that did not succeed). Resolves with the
 * message once shown, without waiting for a choice.
 */
export const showResultFailure: Command = {
  id: 'webdata.result.showFailure',
  async run({ model, log }, node?: unknown) {
    const target = resultOf(node);
    const result = target && model.result(target.runId, target.resultId);
    if (!target || !result) return undefined;
    const remedy = failureRemedy(result);
    const message = [resultFailure(result), remedy.advice].filter(Boolean).join('. ');
    log.info(`result ${result.id} of run ${target.runId}: ${message}`);
    const actions = failureActions(remedy, Boolean(result.url));
    void vscode.window.showErrorMessage(message, ...actions).then(async (chosen) => {
      if (chosen === EXTRACT_AGAIN && result.url)
        await vscode.commands.executeCommand('webdata.extractFromUrl', [result.url]);
      if (chosen === OPEN_PAGE && result.url) await vscode.env.openExternal(vscode.Uri.parse(result.url));
      if (chosen === COPY_URL && result.url) await vscode.env.clipboard.writeText(result.url);
      if (chosen === RETRY_RUN) await vscode.commands.executeCommand('webdata.run.retry', target.runId);
    });
    return message;
  },
};
