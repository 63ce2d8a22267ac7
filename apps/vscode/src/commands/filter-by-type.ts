import type { RunFilter } from '../runs/run-types.js';
import type { Command } from '../services.js';
import { applyFilter, pickFilterValue, runTypes } from '../tree/apply-filter.js';

/** Filter Runs by Type…: the server's `type` filter (a type may be passed). */
export const filterByType: Command = {
  id: 'webdata.runs.filterByType',
  async run(services, given?: unknown) {
    const type = await pickFilterValue(given, runTypes(), 'Show runs of type', 'Any type');
    if (type === undefined) return;
    await applyFilter(services, { ...services.store.filter, type: (type || undefined) as RunFilter['type'] });
  },
};
