import { followAndAnnounce } from '../runs/start-run.js';
import type { Command } from '../services.js';
import { runLabel } from '../tree/describe-run.js';
import { runIdOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/**
 * Retry Run: queues an incomplete, failed or cancelled run again (only the
 * pages that did not succeed run again), then follows it like a run started
 * here: a progress notification (cancelling it cancels the run), and a
 * message when it ends saying how, with the first failed page's reason.
 * Before, nothing on screen answered the click: a page that failed again at
 * once left the tree as it was, and the Retry button of a failure message
 * seemed to do nothing.
 */
export const retryRun: Command = {
  id: 'webdata.run.retry',
  async run(services, node?: unknown) {
    const { connection, store, log } = services;
    const runId = runIdOf(node);
    if (!runId) return undefined;
    try {
      const run = await connection.client().runs.retry(runId);
      store.upsert(run);
      log.info(`retried run ${runId}`);
      followAndAnnounce(services, run, `retry of ${runLabel(run)}`, true);
      return run;
    } catch (error) {
      void showError(log, `Could not retry run ${runId}`, error);
      return undefined;
    }
  },
};
