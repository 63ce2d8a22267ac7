import type { RunLenient } from '@webdata/contract';
import { defer, filter, type MonoTypeOperatorFunction } from 'rxjs';

/**
 * What makes two snapshots of a run "the same": status, `updated_at`, the
 * stats and the finish time. A foreign server without `updated_at` still
 * dedupes on status and stats.
 *
 * @example
 * ```ts
 * runSnapshotKey(run) === runSnapshotKey(previous); // nothing new to show
 * ```
 */
export function runSnapshotKey(run: RunLenient): string {
  return JSON.stringify([run.status, run.updated_at ?? null, run.stats ?? null, run.finished_at ?? null]);
}

/**
 * Drops run snapshots that do not differ from the last one passed on (a
 * server without ETags answers the same body again and again). `seed`
 * counts as already emitted, e.g. the run as its creation returned it.
 *
 * @example
 * ```ts
 * import { distinctSnapshot } from '@webdata/core';
 *
 * client.runs.watch(id).pipe(distinctSnapshot()).subscribe((run) => render(run));
 * ```
 */
export function distinctSnapshot(
  seed?: RunLenient,
  key: (run: RunLenient) => string = runSnapshotKey,
): MonoTypeOperatorFunction<RunLenient> {
  return (source) =>
    // Per subscription (defer), so a re-subscribed stream starts from the seed again.
    defer(() => {
      let last = seed ? key(seed) : undefined;
      return source.pipe(
        filter((run) => {
          const current = key(run);
          if (current === last) return false;
          last = current;
          return true;
        }),
      );
    });
}
