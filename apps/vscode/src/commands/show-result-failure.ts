import * as vscode from 'vscode';
import type { Command } from '../services.js';
import { resultFailure } from '../tree/describe-run.js';
import { resultOf } from '../tree/node-argument.js';

const OPEN_PAGE = 'Open Page';
const COPY_URL = 'Copy URL';
const RETRY = 'Retry Run';

/**
 * Show Why It Failed: what a click on a failed result does (it has nothing to
 * open). An error message with the page, the service's reason and its code,
 * offering to open the page in the browser, copy its URL, or retry the run
 * (which runs again only the pages that did not succeed). Resolves with the
 * message once shown, without waiting for a choice.
 */
export const showResultFailure: Command = {
  id: 'webdata.result.showFailure',
  async run({ model, log }, node?: unknown) {
    const target = resultOf(node);
    const result = target && model.result(target.runId, target.resultId);
    if (!target || !result) return undefined;
    const message = resultFailure(result);
    log.info(`result ${result.id} of run ${target.runId}: ${message}`);
    const actions = result.url ? [OPEN_PAGE, COPY_URL, RETRY] : [RETRY];
    void vscode.window.showErrorMessage(message, ...actions).then(async (chosen) => {
      if (chosen === OPEN_PAGE && result.url) await vscode.env.openExternal(vscode.Uri.parse(result.url));
      if (chosen === COPY_URL && result.url) await vscode.env.clipboard.writeText(result.url);
      if (chosen === RETRY) await vscode.commands.executeCommand('webdata.run.retry', target.runId);
    });
    return message;
  },
};
