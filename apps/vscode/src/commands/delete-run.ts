import * as vscode from 'vscode';
import type { Command } from '../services.js';
import { runIdOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/**
 * Delete Run…: after a modal confirmation, deletes the run with its results,
 * content and screenshots (an active run is cancelled first). Tests may pass
 * `{ confirm: false }` as the second argument.
 */
export const deleteRun: Command = {
  id: 'webdata.run.delete',
  async run({ connection, store, log }, node?: unknown, options?: unknown) {
    const runId = runIdOf(node);
    if (!runId) return false;
    const ask = (options as { confirm?: unknown } | undefined)?.confirm !== false;
    if (ask) {
      const run = store.get(runId);
      const pages = run?.stats?.total ? ` and its ${run.stats.total} pages of results` : '';
      const DELETE = 'Delete';
      const answer = await vscode.window.showWarningMessage(
        `Delete run ${runId}${pages}? This cannot be undone.`,
        { modal: true },
        DELETE,
      );
      if (answer !== DELETE) return false;
    }
    try {
      await connection.client().runs.delete(runId);
      store.remove(runId);
      log.info(`deleted run ${runId}`);
      return true;
    } catch (error) {
      void showError(log, `Could not delete run ${runId}`, error);
      return false;
    }
  },
};
