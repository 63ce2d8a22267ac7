import * as vscode from 'vscode';
import { deleteQuestion } from '../runs/run-summary.js';
import type { Command } from '../services.js';
import { keepPlace } from '../tree/keep-place.js';
import { givenOrSelected, isNode, runIdOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/**
 * Delete Run…: after a modal confirmation naming the run by what it is
 * ({@link deleteQuestion}), deletes the run with its results,
 * content and screenshots (an active run is cancelled first). Deleted from
 * its row, the run below it (else above) takes the focus, as in the Explorer.
 * Tests may pass `{ confirm: false }` as the second argument.
 */
export const deleteRun: Command = {
  id: 'webdata.run.delete',
  async run({ connection, store, log, model, treeView }, given?: unknown, options?: unknown) {
    // The Delete key: the row with the focus, which may be a result (whose run is not deleted so).
    const node = givenOrSelected(given, treeView);
    if (isNode(node) && node.kind !== 'run') return false;
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
      const ids = store.runs.map((run) => run.id);
      const at = ids.indexOf(runId);
      const neighbour = at < 0 ? undefined : (ids[at + 1] ?? ids[at - 1]);
      store.remove(runId);
      log.info(`deleted run ${runId}`);
      // From its row (not from a run id): the row, and with it the focus, is gone.
      if (typeof node === 'object' && neighbour !== undefined)
        await keepPlace(treeView, model.runNode(neighbour));
      return true;
    } catch (error) {
      void showError(log, `Could not delete run ${runId}`, error);
      return false;
    }
  },
};
