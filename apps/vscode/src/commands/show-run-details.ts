import type { Command } from '../services.js';
import { runIdOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/**
 * Show Run Details: the run in a read-only Markdown tab (what it was asked,
 * its request as JSON, its timings, pages and error); the same run's tab is
 * reused. Resolves with the editor, for tests.
 */
export const showRunDetails: Command = {
  id: 'webdata.run.showDetails',
  async run({ runDetails, log }, node?: unknown) {
    const runId = runIdOf(node);
    if (!runId) return undefined;
    try {
      return await runDetails.open(runId);
    } catch (error) {
      void showError(log, `Could not show run ${runId}`, error);
      return undefined;
    }
  },
};
