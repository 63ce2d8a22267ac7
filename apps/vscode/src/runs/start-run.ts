import type { Runs } from '@webdata/core';
import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { resultFailure } from '../tree/describe-run.js';
import { COPY_URL, EXTRACT_AGAIN, failureActions, OPEN_PAGE } from '../ui/failure-actions.js';
import { showError } from '../ui/show-error.js';
import { failureRemedy } from './failure-remedy.js';
import { firstFailedResult } from './first-failure.js';
import { followRun } from './follow-run.js';
import { progressTitle } from './run-progress.js';
import { runEndSummary } from './run-summary.js';
import type { Result, Run } from './run-types.js';

/** The body of `POST /runs`: `{ type, …that type's request }`. */
export type RunRequest = Parameters<Runs['start']>[0];

/**
 * Starts a run, then follows it in a cancellable progress notification and
 * says how it ended, offering to open its results. Resolves with the run as
 * created (the following goes on in the background); `undefined` when it
 * could not be started (the error is shown with its actions).
 */
export async function startRun(
  services: Services,
  request: RunRequest,
  what: string,
): Promise<Run | undefined> {
  let created: Run;
  try {
    const client = services.connection.client();
    created = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Web Data: starting ${what}…` },
      () => client.runs.start(request),
    );
  } catch (error) {
    // Try Again sends the same request: the URLs picked, the query and fields typed are not asked again.
    // A 404 here says the address is not a Web Data service's: Change the Address… comes first.
    void showError(services.log, `Could not start ${what}`, error, {
      tryAgain: () => startRun(services, request, what),
      creating: { address: services.connection.baseUrl },
    });
    return undefined;
  }
  services.log.info(`started ${created.type} run ${created.id} on ${created.urls.length || 1} URL(s)`);
  followAndAnnounce(services, created, what);
  return created;
}

/**
 * Follows a run this window started (or queued again: Retry Run) in a cancellable progress
 * notification, then says how it ended, offering to open its results. Returns at once.
 */
export function followAndAnnounce(services: Services, run: Run, what: string, again = false): void {
  const title = progressTitle(run, again);
  void followRun({ ...services, client: services.connection.client() }, run, title).then((last) =>
    announce(services, last, what),
  );
}

/**
 * Says how a followed run ended, with what can be done next: its results, or, when it failed, Retry
 * when its first failed page may pass run again, else what mends it ({@link failureRemedy}): a run
 * whose pages were missing, behind a login or refused offered Retry, which failed the same way.
 */
async function announce(services: Services, run: Run, what: string): Promise<void> {
  const OPEN = 'Open Results';
  const SHOW = 'Show in Runs';
  const RETRY = 'Retry';
  let chosen: string | undefined;
  const failed = await firstFailedOf(services, run);
  const remedy = failed ? failureRemedy(failed) : undefined;
  const summary = runEndSummary(run, what, failed && resultFailure(failed));
  services.log.info(summary);
  const openable = (run.stats?.succeeded ?? 0) > 0;
  if (run.status === 'completed' || run.status === 'incomplete') {
    chosen = await vscode.window.showInformationMessage(summary, ...(openable ? [OPEN, SHOW] : [SHOW]));
  } else if (run.status === 'failed') {
    const mayPass = remedy?.mayPass ?? true;
    const actions = mayPass ? [RETRY, SHOW] : [...failureActions(remedy!, Boolean(failed?.url)), SHOW];
    const advice = remedy?.advice ? ` ${remedy.advice}` : '';
    services.log.info(`run ${run.id} failed; offered: ${actions.join(', ')}`);
    chosen = await vscode.window.showErrorMessage(`${summary}${advice}`, ...actions);
  } else if (run.status === 'cancelled') {
    // The pages done before the cancel are kept: they open like any run's.
    chosen = await vscode.window.showInformationMessage(summary, ...(openable ? [OPEN, SHOW] : [SHOW]));
  } else {
    return;
  }
  const node = services.model.runNode(run.id);
  if (chosen === OPEN) await vscode.commands.executeCommand('webdata.run.openAllResults', node);
  if (chosen === RETRY) await vscode.commands.executeCommand('webdata.run.retry', node);
  if (chosen === EXTRACT_AGAIN) await vscode.commands.executeCommand('webdata.extractFromUrl', run.urls);
  if (chosen === OPEN_PAGE && failed?.url) await vscode.env.openExternal(vscode.Uri.parse(failed.url));
  if (chosen === COPY_URL && failed?.url) await vscode.env.clipboard.writeText(failed.url);
  if (chosen === SHOW) {
    await vscode.commands.executeCommand('webdata.runs.focus');
    await Promise.resolve(services.treeView.reveal(node, { select: true, focus: true })).catch(
      (error: unknown) => showError(services.log, 'Could not show the run (is it filtered out?)', error),
    );
  }
}

/** The run's first failed page, in the order of its URLs; logged, not shown, when that cannot be read. */
async function firstFailedOf(services: Services, run: Run): Promise<Result | undefined> {
  if ((run.stats?.failed ?? 0) === 0) return undefined;
  try {
    return await firstFailedResult(services.connection.client().runs, run);
  } catch (error) {
    services.log.error(`could not read the failed pages of run ${run.id}`, error);
    return undefined;
  }
}
