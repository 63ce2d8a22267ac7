import type { RunFilter } from '../runs/run-types.js';
import type { Command } from '../services.js';
import { applyFilter, pickFilterValue, runStatuses } from '../tree/apply-filter.js';

/** Filter Runs by Status…: the server's `status` filter (a status may be passed). */
export const filterByStatus: Command = {
  id: 'webdata.runs.filterByStatus',
  async run(services, given?: unknown) {
    const status = await pickFilterValue(given, runStatuses(), 'Show runs with status', 'Any status');
    if (status === undefined) return;
    await applyFilter(services, {
      ...services.store.filter,
      status: (status || undefined) as RunFilter['status'],
    });
  },
};
