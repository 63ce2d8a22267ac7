import * as vscode from 'vscode';
import type { Command } from '../services.js';
import { resultOf } from '../tree/node-argument.js';

/** Open Page in Browser: a result's page at its address, outside VS Code. */
export const openResultPage: Command = {
  id: 'webdata.result.openPage',
  async run({ model }, node?: unknown) {
    const target = resultOf(node);
    const url = target && model.result(target.runId, target.resultId)?.url;
    if (!url) return false;
    return vscode.env.openExternal(vscode.Uri.parse(url));
  },
};
