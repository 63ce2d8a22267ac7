import * as vscode from 'vscode';
import { requestOfRun } from '../runs/run-request.js';
import { startRun } from '../runs/start-run.js';
import type { Command } from '../services.js';
import { runLabel } from '../tree/describe-run.js';
import { runIdOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/**
 * Run Again (an ended run's context menu), as GitHub Actions' "Re-run": a new
 * run with the same request, rebuilt from what the run keeps of it (see
 * {@link requestOfRun}); the service has no re-run of its own, and Retry Run
 * runs only the pages that did not succeed, in the same run. The new run is
 * followed like any run started here. Resolves with it (`undefined` when it
 * could not be started).
 */
export const runAgain: Command = {
  id: 'webdata.run.runAgain',
  async run(services, node?: unknown) {
    const runId = runIdOf(node);
    if (!runId) return undefined;
    try {
      const run = services.store.get(runId) ?? (await services.connection.client().runs.get(runId));
      const request = requestOfRun(run);
      if (!request) {
        void vscode.window.showErrorMessage(
          `Run ${runId} cannot be run again: the service did not keep its request (params).`,
        );
        return undefined;
      }
      const created = await startRun(services, request, `re-run of ${runLabel(run)}`);
      if (created) services.log.info(`ran ${runId} again as ${created.id}`);
      return created;
    } catch (error) {
      void showError(services.log, `Could not run ${runId} again`, error);
      return undefined;
    }
  },
};
