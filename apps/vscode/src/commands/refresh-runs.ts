import type { Command } from '../services.js';

/** Refresh Runs (view title): lists the first page again; also the welcome views' "Try again". */
export const refreshRuns: Command = {
  id: 'webdata.runs.refresh',
  async run({ connection, store, provider }) {
    if (connection.state !== 'connected') await connection.reconnect();
    store.reset();
    provider.redrawAll();
  },
};
