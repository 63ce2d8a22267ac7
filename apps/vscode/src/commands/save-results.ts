import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { inInputOrder } from '@webdata/core';
import * as vscode from 'vscode';
import { formatForRun } from '../documents/result-format.js';
import { ContentSpill } from '../export/content-spill.js';
import { ReadCancelled, readResultsWithProgress } from '../export/read-all-results.js';
import {
  type ContentOf,
  formatOfFileName,
  RESULTS_FORMATS,
  type ResultsFormat,
  resultsFileChunks,
  resultsFileName,
} from '../export/results-file.js';
import { progressText } from '../runs/run-summary.js';
import type { Result, Run } from '../runs/run-types.js';
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
      const spill = new ContentSpill();
      let ordered: Result[];
      try {
        const results = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: `Saving the results of ${label}`,
            cancellable: true,
          },
          (progress, token) =>
            readResultsWithProgress(client.runs, run.id, run.stats?.total, progress, token, undefined, {
              content,
              keep: async (page) => spill.keep(page),
            }),
        );
        ordered = inInputOrder(results, run.urls);
        await writeResultsFile(
          uri,
          ordered,
          format,
          spill.folder,
          content ? (result) => spill.contentOf(result) : undefined,
        );
      } finally {
        spill.dispose();
      }
      const where = uri.scheme === 'file' ? uri.fsPath : uri.toString();
      log.info(`saved ${countOf(ordered.length, 'result')} of run ${run.id} to ${where} (${format})`);
      void announce(uri, `Saved ${countOf(ordered.length, 'result')} of ${label} to ${basename(uri)}.`);
      return { uri, format, count: ordered.length } satisfies SavedResults;
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
 * Writes the file a record at a time into the spill's folder, then copies it to `uri` (through VS
 * Code's file system, so any folder the window can write to): the place picked is not touched until
 * every result is read and written, and the text of the whole file is never held at once.
 */
async function writeResultsFile(
  uri: vscode.Uri,
  results: readonly Result[],
  format: ResultsFormat,
  folder: string,
  contentOf: ContentOf | undefined,
): Promise<void> {
  const path = join(folder, `results.${format}`);
  const file = await open(path, 'w');
  try {
    // Records gathered up to about a megabyte a write: one write each would be thousands of calls.
    let pending: string[] = [];
    let length = 0;
    for (const chunk of resultsFileChunks(results, format, contentOf)) {
      pending.push(chunk);
      length += chunk.length;
      if (length >= 1 << 20) {
        await file.write(pending.join(''), null, 'utf8');
        pending = [];
        length = 0;
      }
    }
    if (pending.length > 0) await file.write(pending.join(''), null, 'utf8');
  } finally {
    await file.close();
  }
  await vscode.workspace.fs.copy(vscode.Uri.file(path), uri, { overwrite: true });
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
