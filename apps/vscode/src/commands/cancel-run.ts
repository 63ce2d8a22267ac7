import type { Command } from '../services.js';
import { runIdOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/** Cancel Run: stops a queued or running run; what finished stays readable. */
export const cancelRun: Command = {
  id: 'webdata.run.cancel',
  async run({ connection, store, log }, node?: unknown) {
    const runId = runIdOf(node);
    if (!runId) return undefined;
    try {
      const run = await connection.client().runs.cancel(runId);
      store.upsert(run);
      log.info(`cancelled run ${runId}`);
      return run;
    } catch (error) {
      void showError(log, `Could not cancel run ${runId}`, error);
      return undefined;
    }
  },
};
