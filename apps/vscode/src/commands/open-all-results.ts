import { inInputOrder } from '@webdata/core';
import * as vscode from 'vscode';
import { openResult } from '../documents/open-result.js';
import { manyResultsQuestion } from '../runs/run-summary.js';
import type { Result } from '../runs/run-types.js';
import type { Command } from '../services.js';
import { runIdOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/** Tabs opened at once without asking. */
const ASK_ABOVE = 10;

/**
 * Open All Results: every succeeded result of a run in its own tab. Above 10, it asks first: the
 * first 10, all of them, or Go to Result… to find one. Tests may pass the answer as the second
 * argument (`{ answer: 'Go to Result…' }`), the modal question being out of an extension's reach.
 */
export const openAllResults: Command = {
  id: 'webdata.run.openAllResults',
  async run({ connection, store, log }, node?: unknown, options?: unknown) {
    const runId = runIdOf(node);
    if (!runId) return [];
    try {
      const client = connection.client();
      const run = store.get(runId) ?? (await client.runs.get(runId));
      const listed: Result[] = await client.runs.results(runId, { status: 'succeeded' }).toArray();
      // Tabs in the order of the URLs given, as the view lists them.
      const results = inInputOrder(listed, run.urls);
      if (results.length === 0) {
        void vscode.window.showInformationMessage(`Run ${runId} has no succeeded result to open.`);
        return [];
      }
      let chosen = results;
      if (results.length > ASK_ABOVE) {
        const ALL = `Open all ${results.length}`;
        const FIRST = `Open the first ${ASK_ABOVE}`;
        const FIND = 'Go to Result…';
        const given = (options as { answer?: unknown } | undefined)?.answer;
        const answer =
          typeof given === 'string'
            ? given
            : await vscode.window.showWarningMessage(
                manyResultsQuestion(run, results.length, ASK_ABOVE),
                { modal: true },
                FIRST,
                ALL,
                FIND,
              );
        if (!answer) return [];
        if (answer === FIND) {
          await vscode.commands.executeCommand('webdata.run.goToResult', runId);
          return [];
        }
        if (answer === FIRST) chosen = results.slice(0, ASK_ABOVE);
      }
      const editors: vscode.TextEditor[] = [];
      for (const result of chosen) editors.push(await openResult(run, result, { preview: false }));
      return editors;
    } catch (error) {
      void showError(log, `Could not open the results of run ${runId}`, error);
      return [];
    }
  },
};
