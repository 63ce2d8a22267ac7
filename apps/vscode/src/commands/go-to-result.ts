import { inInputOrder } from '@webdata/core';
import * as vscode from 'vscode';
import { openResult } from '../documents/open-result.js';
import type { Command } from '../services.js';
import { countOf } from '../text/count-of.js';
import { runLabel } from '../tree/describe-run.js';
import { runIdOf } from '../tree/node-argument.js';
import { type ResultItem, resultItems, resultPickItems } from '../ui/result-pick-items.js';
import { showError } from '../ui/show-error.js';

/**
 * Go to Result…: a quick pick of every page a run got, found by typing part
 * of its title or address, and the chosen one opened in its tab. The tree
 * lists a run's results 50 at a time and finds only among those loaded: in a
 * crawl of hundreds of pages, this is how one is found. A query may be passed
 * to start with. Resolves with the editor, or `undefined` when dismissed.
 */
export const goToResult: Command = {
  id: 'webdata.run.goToResult',
  async run({ connection, store, log }, node?: unknown, query?: unknown) {
    const runId = runIdOf(node);
    if (!runId) return undefined;
    const pick = vscode.window.createQuickPick<ResultItem>();
    try {
      const client = connection.client();
      const run = store.get(runId) ?? (await client.runs.get(runId));
      pick.title = `Web Data: ${runLabel(run)}`;
      pick.placeholder = 'Type part of a page title or address';
      pick.matchOnDescription = true;
      pick.busy = true;
      if (typeof query === 'string') pick.value = query;
      const chosen = new Promise<ResultItem | undefined>((resolve) => {
        // Enter while the list is still loading (nothing selected yet), or on the line saying no page
        // matches, keeps the pick open.
        pick.onDidAccept(() => {
          const item = pick.selectedItems[0];
          if (item?.result) resolve(item);
        });
        pick.onDidHide(() => resolve(undefined));
      });
      pick.show();
      const listed = await client.runs.results(runId, { status: 'succeeded' }).toArray();
      const results = inInputOrder(listed, run.urls);
      const pages = resultItems(results);
      // Set anew only while the line saying no page matches is there (it names what was typed), or
      // when it comes or goes: new items lose the row the arrows reached.
      let shown = resultPickItems(pages, pick.value);
      pick.items = shown;
      pick.onDidChangeValue((value) => {
        const items = resultPickItems(pages, value);
        if (items.length !== shown.length || items.length > pages.length) pick.items = shown = items;
      });
      pick.placeholder = `Type part of a page title or address (${countOf(results.length, 'page')})`;
      pick.busy = false;
      const item = await chosen;
      pick.hide();
      return item?.result ? await openResult(run, item.result) : undefined;
    } catch (error) {
      pick.hide();
      void showError(log, `Could not list the results of run ${runId}`, error);
      return undefined;
    } finally {
      pick.dispose();
    }
  },
};
