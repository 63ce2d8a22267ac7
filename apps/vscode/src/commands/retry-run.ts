import type { Command } from '../services.js';
import { runIdOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/**
 * Retry Run: queues an incomplete, failed or cancelled run again (only the
 * pages that did not succeed run again). The view's watch follows it.
 */
export const retryRun: Command = {
  id: 'webdata.run.retry',
  async run({ connection, store, log }, node?: unknown) {
    const runId = runIdOf(node);
    if (!runId) return undefined;
    try {
      const run = await connection.client().runs.retry(runId);
      store.upsert(run);
      log.info(`retried run ${runId}`);
      return run;
    } catch (error) {
      void showError(log, `Could not retry run ${runId}`, error);
      return undefined;
    }
  },
};
