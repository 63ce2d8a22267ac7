import type { Command } from '../services.js';
import { keepPlace } from '../tree/keep-place.js';
import { showError } from '../ui/show-error.js';

/**
 * Load more…: the next page of runs, or of a run's results (the node says
 * which). The first row it brought takes the place, and the focus, of the
 * Load more… row, which is gone.
 */
export const loadMore: Command = {
  id: 'webdata.loadMore',
  async run({ loader, log, store, model, treeView }, node?: unknown) {
    const runId = (node as { kind?: string; runId?: string } | undefined)?.runId;
    // The last row before Load more…: the first new one follows it (runs may arrive on top meanwhile).
    const lastId = runId ? store.resultsOf(runId).items.at(-1)?.id : store.runs.at(-1)?.id;
    try {
      if (runId) await loader.loadResults(runId, true);
      else await loader.loadMoreRuns();
    } catch (error) {
      void showError(log, runId ? 'Could not load more results' : 'Could not load more runs', error);
      return;
    }
    const ids = runId
      ? store.resultsOf(runId).items.map((result) => result.id)
      : store.runs.map((run) => run.id);
    const firstNew = lastId === undefined ? undefined : ids[ids.indexOf(lastId) + 1];
    if (firstNew === undefined) return;
    const rows = runId ? model.children(model.runNode(runId)) : model.roots();
    await keepPlace(
      treeView,
      rows.find((row) => (runId ? 'resultId' in row && row.resultId === firstNew : row.id === firstNew)),
    );
  },
};
