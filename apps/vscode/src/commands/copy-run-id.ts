import * as vscode from 'vscode';
import type { Command } from '../services.js';
import { runIdOf } from '../tree/node-argument.js';

/** Copy Run ID, to the clipboard. */
export const copyRunId: Command = {
  id: 'webdata.run.copyId',
  async run(_services, node?: unknown) {
    const runId = runIdOf(node);
    if (!runId) return;
    await vscode.env.clipboard.writeText(runId);
    vscode.window.setStatusBarMessage(`Copied ${runId}`, 3_000);
  },
};
