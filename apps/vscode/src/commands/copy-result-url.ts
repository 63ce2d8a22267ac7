import * as vscode from 'vscode';
import type { Command } from '../services.js';
import { resultOf } from '../tree/node-argument.js';

/** Copy Page URL: a result's page address, to the clipboard. Resolves with the URL copied. */
export const copyResultUrl: Command = {
  id: 'webdata.result.copyUrl',
  async run({ model }, node?: unknown) {
    const target = resultOf(node);
    const url = target && model.result(target.runId, target.resultId)?.url;
    if (!url) return undefined;
    await vscode.env.clipboard.writeText(url);
    vscode.window.setStatusBarMessage(`Copied ${url}`, 3_000);
    return url;
  },
};
