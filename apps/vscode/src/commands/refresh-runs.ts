import type { Command } from '../services.js';

/**
 * Refresh Runs (view title): lists the first page again; also the welcome views' "Try again".
 * The runs listed stay until the answer replaces them: with the service down they stay, marked
 * stale by the view's message. A client is made anew only when there is none (no key, a bad
 * address): the same key and address would make the same one, and a new client forgets the list.
 */
export const refreshRuns: Command = {
  id: 'webdata.runs.refresh',
  async run({ connection, store, provider }) {
    if (!connection.hasClient()) await connection.reconnect();
    store.relist();
    provider.redrawAll();
  },
};
