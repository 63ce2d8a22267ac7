import type { CompletedItem, ItemOutcome } from './store.js';

/**
 * Characters an outcome writes: its contents and the text it indexes. What its write costs grows
 * with it (SQLite: about 35 ms a MB on the thread that runs the statements).
 */
export function outcomeChars(outcome: ItemOutcome): number {
  let chars = outcome.document?.body.length ?? 0;
  for (const body of Object.values(outcome.contents)) chars += body?.length ?? 0;
  return chars;
}

/** Characters a batch of outcomes writes (see {@link outcomeChars}). */
export function batchChars(batch: readonly CompletedItem[]): number {
  let chars = 0;
  for (const { outcome } of batch) chars += outcomeChars(outcome);
  return chars;
}
