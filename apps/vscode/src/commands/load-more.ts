import type { Command } from '../services.js';
import { showError } from '../ui/show-error.js';

/** Load more…: the next page of runs, or of a run's results (the node says which). */
export const loadMore: Command = {
  id: 'webdata.loadMore',
  async run({ loader, log }, node?: unknown) {
    const runId = (node as { kind?: string; runId?: string } | undefined)?.runId;
    try {
      if (runId) await loader.loadResults(runId, true);
      else await loader.loadMoreRuns();
    } catch (error) {
      void showError(log, runId ? 'Could not load more results' : 'Could not load more runs', error);
    }
  },
};
