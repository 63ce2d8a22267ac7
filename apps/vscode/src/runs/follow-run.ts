import { isTerminalStatus, NotFoundError, type WebDataClient } from '@webdata/core';
import * as vscode from 'vscode';
import { stateAfter } from '../connection/connection-state.js';
import type { Log } from '../ui/log.js';
import { showError } from '../ui/show-error.js';
import { keepFollowing } from './keep-following.js';
import { progressMessage } from './run-progress.js';
import type { Run } from './run-types.js';
import type { RunsStore } from './runs-store.js';
import type { StartedRuns } from './started-runs.js';

/** What a followed run needs from the extension. */
export interface FollowDeps {
  client: WebDataClient;
  store: RunsStore;
  started: StartedRuns;
  log: Log;
}

/**
 * Follows a run this window started, in a cancellable progress notification
 * titled by what it does and where, counting its pages ({@link progressMessage}): cancelling the notification cancels the run.
 * Its snapshots also feed the Runs view and the status bar. Resolves with
 * the last snapshot once the run is terminal (or the watch failed). While the
 * service does not answer, it says so and keeps trying ({@link keepFollowing}),
 * until the run ends or the notification is cancelled.
 */
export function followRun(deps: FollowDeps, created: Run, title: string): Promise<Run> {
  const { client, store, started, log } = deps;
  started.update(created);
  store.upsert(created);
  return Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) =>
        new Promise<Run>((resolve) => {
          let last = created;
          let done = 0;
          const report = (run: Run) => {
            const stats = run.stats;
            const fraction =
              stats?.total && stats.total > 0
                ? ((stats.succeeded ?? 0) + (stats.failed ?? 0) + (stats.cancelled ?? 0)) / stats.total
                : 0;
            const increment = Math.max(0, Math.round(fraction * 100) - done);
            done += increment;
            progress.report({ message: progressMessage(run), increment });
          };
          report(created);
          const following = keepFollowing(() => client.runs.watch(created.id), {
            onOutage: (error) => {
              log.error(`following run ${created.id}: the service does not answer (trying again)`, error);
              progress.report({
                message: `${progressMessage(last)}. The service does not answer: still trying…`,
              });
            },
          }).subscribe({
            next: (run) => {
              last = run;
              started.update(run);
              store.upsert(run);
              report(run);
            },
            error: (error: unknown) => {
              started.forget(created.id);
              // Deleted (from the Runs view, or elsewhere): nothing was lost; the notification just ends.
              if (error instanceof NotFoundError) log.info(`run ${created.id} was deleted while followed`);
              else void showError(log, `Lost track of run ${created.id}`, error);
              resolve(last);
            },
            complete: () => {
              started.forget(created.id);
              resolve(last);
            },
          });
          token.onCancellationRequested(() => {
            if (isTerminalStatus(last.status)) return;
            log.info(`cancelling run ${created.id} from its progress notification`);
            client.runs.cancel(created.id).then(
              (run) => {
                store.upsert(run);
                started.update(run);
              },
              (error: unknown) => {
                void showError(log, `Could not cancel run ${created.id}`, error);
                // No service to cancel it: stop following (the Runs view still shows the run).
                if (stateAfter(error) === 'unreachable') {
                  following.unsubscribe();
                  started.forget(created.id);
                  resolve(last);
                }
              },
            );
            // The watch goes on until the run is terminal (cancelled), so the tree sees it end.
          });
        }),
    ),
  );
}
