import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { formatForRun } from '../documents/result-format.js';
import { ReadCancelled, readResultsWithProgress } from '../export/read-all-results.js';
import {
  EXCEL_CELL_LIMIT,
  formatOfFileName,
  RESULTS_FORMATS,
  type ResultsFormat,
  resultsFileName,
} from '../export/results-file.js';
import { type SavedFile, saveResultsFile } from '../export/save-results-file.js';
import { progressText } from '../runs/run-summary.js';
import type { Run } from '../runs/run-types.js';
import type { Command, Services } from '../services.js';
import { countOf } from '../text/count-of.js';
import { runLabel } from '../tree/describe-run.js';
import { runIdOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/** What Save Results… resolves with: where the results went and how many, or `undefined` when dismissed or cancelled. */
export interface SavedResults {
  uri: vscode.Uri;
  format: ResultsFormat;
  count: number;
  /** How many of a CSV's cells were cut to fit in Excel (32,767 characters a cell). */
  cutCells: number;
}

/**
 * What tests and scripts may pass in place of the questions (the format pick, the save dialog, which
 * a test inside the extension host cannot answer): `{ format: 'csv', uri: 'file:///tmp/a.csv' }`.
 */
interface SaveOptions {
  format?: ResultsFormat;
  uri?: vscode.Uri | string;
}

/**
 * Save Results…: every result of a run (each page of the service's results
 * list, not only what the Runs view loaded), in the order its URLs were
 * given, written to a file the user picks, as JSON, JSON Lines or CSV. From
 * a run's context menu, or the command palette (which asks for the run). A
 * notification shows how many were read and can cancel the save; nothing is
 * written until every page is read.
 */
export const saveResults: Command = {
  id: 'webdata.run.saveResults',
  async run(services, node?: unknown, options?: unknown) {
    const given = (options ?? {}) as SaveOptions;
    const { connection, store, log } = services;
    let runId = runIdOf(node);
    try {
      if (!runId) runId = (await pickRun(services))?.id;
      if (!runId) return undefined;
      const client = connection.client();
      const run = store.get(runId) ?? (await client.runs.get(runId));
      const picked = given.format ?? (await pickFormat());
      if (!picked) return undefined;
      const uri = given.uri
        ? typeof given.uri === 'string'
          ? vscode.Uri.parse(given.uri)
          : given.uri
        : await askWhere(run, picked);
      if (!uri) return undefined;
      // The file's extension has the last word: lamps.csv is CSV, whichever format was picked first.
      const format = formatOfFileName(uri.path) ?? picked;
      const label = runLabel(run);
      // A crawl's pages carry their content (Markdown, or the format the run asked for first); an
      // extraction's data is already in its results.
      const content = run.type === 'extract' ? undefined : formatForRun(run);
      const { count, cutCells } = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Saving the results of ${label}`,
          cancellable: true,
        },
        (progress, token) =>
          saveTo(uri, {
            read: (keep) =>
              readResultsWithProgress(client.runs, run.id, run.stats?.total, progress, token, undefined, {
                content,
                keep,
              }),
            urls: run.urls,
            format,
            withContent: content !== undefined,
          }),
      );
      const where = uri.scheme === 'file' ? uri.fsPath : uri.toString();
      const cut = cutCells > 0 ? cutText(cutCells) : '';
      log.info(
        `saved ${countOf(count, 'result')} of run ${run.id} to ${where} (${format})${cut ? `; ${cut}` : ''}`,
      );
      void announce(
        uri,
        `Saved ${countOf(count, 'result')} of ${label} to ${basename(uri)}.${cut ? ` ${cut}` : ''}`,
      );
      return { uri, format, count, cutCells } satisfies SavedResults;
    } catch (error) {
      if (error instanceof ReadCancelled) {
        log.info(`saving the results of run ${runId} cancelled: nothing written`);
        return undefined;
      }
      void showError(log, `Could not save the results of run ${runId ?? ''}`.trimEnd(), error);
      return undefined;
    }
  },
};

/**
 * Saves the results to `uri` ({@link saveResultsFile}): a file on disk is written beside it and renamed
 * into place; any other (a virtual or remote file system) is written in a temporary folder, copied
 * beside it through VS Code's file system and renamed there. Either way `uri` is not touched until
 * every result is read and written.
 */
async function saveTo(
  uri: vscode.Uri,
  options: Omit<Parameters<typeof saveResultsFile>[0], 'target'>,
): Promise<SavedFile> {
  if (uri.scheme === 'file') return saveResultsFile({ ...options, target: uri.fsPath });
  const folder = await mkdtemp(join(tmpdir(), 'webdata-save-'));
  try {
    const local = join(folder, 'results');
    const saved = await saveResultsFile({ ...options, target: local });
    const beside = uri.with({ path: `${uri.path}.${Date.now().toString(36)}.part` });
    await vscode.workspace.fs.copy(vscode.Uri.file(local), beside, { overwrite: true });
    try {
      await vscode.workspace.fs.rename(beside, uri, { overwrite: true });
    } catch (error) {
      await Promise.resolve(vscode.workspace.fs.delete(beside)).catch(() => undefined);
      throw error;
    }
    return saved;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Says once, in the message that the file is saved, that cells were cut, where, and how to get them whole. */
function cutText(cutCells: number): string {
  const cells = cutCells === 1 ? 'One cell was' : `${cutCells.toLocaleString('en-US')} cells were`;
  return `${cells} longer than Excel holds (${EXCEL_CELL_LIMIT.toLocaleString('en-US')} characters) and cut, ending with "[Cut here: …]"; JSON and JSON Lines keep them whole.`;
}

async function announce(uri: vscode.Uri, message: string): Promise<void> {
  const OPEN = 'Open File';
  if ((await vscode.window.showInformationMessage(message, OPEN)) === OPEN) {
    await vscode.window.showTextDocument(uri);
  }
}

function basename(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}

async function pickFormat(): Promise<ResultsFormat | undefined> {
  const chosen = await vscode.window.showQuickPick(
    RESULTS_FORMATS.map((entry) => ({ label: entry.label, detail: entry.detail, format: entry.format })),
    { title: 'Web Data: Save Results as', placeHolder: 'The file format' },
  );
  return chosen?.format;
}

async function askWhere(run: Run, format: ResultsFormat): Promise<vscode.Uri | undefined> {
  const entry = RESULTS_FORMATS.find((candidate) => candidate.format === format)!;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = resultsFileName(run, entry.extension);
  return vscode.window.showSaveDialog({
    title: `Web Data: Save the results of ${runLabel(run)}`,
    saveLabel: 'Save Results',
    filters: { [entry.label]: [entry.extension] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
  });
}

/** The command palette's way in: a pick of the runs listed (the first page from the service when none is). */
async function pickRun({ connection, store }: Services): Promise<Run | undefined> {
  const runs = store.runs.length > 0 ? store.runs : (await connection.client().runs.list({ limit: 50 })).data;
  if (runs.length === 0) {
    void vscode.window.showInformationMessage('There is no run to save the results of.');
    return undefined;
  }
  const chosen = await vscode.window.showQuickPick(
    runs.map((run) => ({
      label: runLabel(run),
      description: `${run.status} · ${progressText(run)}`,
      detail: run.id,
      run,
    })),
    {
      title: 'Web Data: Save the Results of a Run',
      placeHolder: 'The run whose results to save',
      matchOnDetail: true,
    },
  );
  return chosen?.run;
}
