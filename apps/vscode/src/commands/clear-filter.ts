import type { Command } from '../services.js';
import { applyFilter } from '../tree/apply-filter.js';

/** Clear Runs Filter. */
export const clearFilter: Command = {
  id: 'webdata.runs.clearFilter',
  run(services) {
    return applyFilter(services, {});
  },
};
