import { openResult as openResultTab } from '../documents/open-result.js';
import type { Command } from '../services.js';
import { resultOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/** Open Result: the result's content in a read-only tab (the same tab when it is open). */
export const openResult: Command = {
  id: 'webdata.result.open',
  async run({ connection, store, model, log }, node?: unknown) {
    const target = resultOf(node);
    if (!target) return undefined;
    try {
      const client = connection.client();
      const run = store.get(target.runId) ?? (await client.runs.get(target.runId));
      const result =
        model.result(target.runId, target.resultId) ??
        (await findResult(client.runs.results(target.runId), target.resultId));
      if (!result) throw new Error(`run ${target.runId} has no result ${target.resultId}`);
      return await openResultTab(run, result);
    } catch (error) {
      void showError(log, 'Could not open the result', error);
      return undefined;
    }
  },
};

async function findResult<T extends { id: string }>(
  results: AsyncIterable<T>,
  id: string,
): Promise<T | undefined> {
  for await (const result of results) if (result.id === id) return result;
  return undefined;
}
