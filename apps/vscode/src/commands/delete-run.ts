import * as vscode from 'vscode';
import { deleteQuestion } from '../runs/run-summary.js';
import type { Command } from '../services.js';
import { runIdOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/**
 * Delete Run…: after a modal confirmation naming the run by what it is
 * ({@link deleteQuestion}), deletes the run with its results,
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
      const { message, detail } = deleteQuestion(runId, store.get(runId), Date.now());
      const DELETE = 'Delete';
      const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, DELETE);
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
