import type { Command } from '../services.js';
import { runIdOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/** Refresh (on a run): reads the run again and, if shown, its first page of results. */
export const refreshRun: Command = {
  id: 'webdata.run.refresh',
  async run({ connection, store, loader, log }, node?: unknown) {
    const runId = runIdOf(node);
    if (!runId) return;
    try {
      const run = await connection.client().runs.get(runId);
      // A changed snapshot already forgets the results; an unchanged one keeps them, so reload them here.
      if (!store.applySnapshot(run) && store.resultsOf(runId).load.state !== 'unloaded') {
        await loader.loadResults(runId);
      }
    } catch (error) {
      void showError(log, `Could not refresh run ${runId}`, error);
    }
  },
};
