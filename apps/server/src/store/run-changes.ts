import type { Run } from '@webdata/contract';
import type { RunChanges, RunChangesQuery } from './store.js';

/** A run's change, at its position in the store-wide sequence of changes. */
export interface ChangedRun {
  seq: number;
  run: Run;
}

/** A run's deletion (its tombstone), at its position in the same sequence. */
export interface DeletedRun {
  seq: number;
  deleted: string;
}

/**
 * A key-wide page of the change feed from the runs that changed and the runs
 * deleted since `query.since` (each list in order, each at most `limit`): the
 * first `limit` of both in the order they happened, deleted runs named in
 * `missing`, and the position after the last one taken.
 */
export function mergeChanges(
  changed: readonly ChangedRun[],
  deleted: readonly DeletedRun[],
  query: RunChangesQuery,
): RunChanges {
  const taken = [...changed, ...deleted].sort((a, b) => a.seq - b.seq).slice(0, query.limit);
  return {
    runs: taken.flatMap((change) => ('run' in change ? [change.run] : [])),
    missing: taken.flatMap((change) => ('deleted' in change ? [change.deleted] : [])),
    cursor: taken.at(-1)?.seq ?? query.since,
  };
}
