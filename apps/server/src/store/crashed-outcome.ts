import { failedOutcome } from './failed-outcome.js';
import type { LeasedItemRow } from './leased-item-row.js';
import type { CompletedItem, InterruptedItems, ItemOutcome } from './store.js';

/**
 * How many times work on one page may start, by default (`WEBDATA_MAX_PAGE_STARTS`), before a page
 * whose process never came back from it fails `crashed` instead of running again.
 *
 * Why: a page that makes the process die while it works on it (out of memory, a native crash, a
 * worker killed mid-page) left a lease that expired, and the page was claimed again without end:
 * its run never finished, and each new try killed the next process. A start is counted when the
 * page's first request goes out (`WorkerPool`, `Store.startItem`), not when it is claimed: claims
 * ahead of a free slot (a pool's reserve, a page waiting for its host's turn) and pages handed back
 * at a graceful shutdown do not count, and a retry of the run (`POST /runs/{id}/retry`) starts
 * the count again.
 */
export const MAX_PAGE_STARTS = 3;

/** The outcome of a page whose work started `starts` times and never ended (the store writes it as any other). */
export function crashedOutcome(starts: number): ItemOutcome {
  return failedOutcome({
    code: 'crashed',
    message: `work on this page started ${starts} ${starts === 1 ? 'time' : 'times'} and each time the process working on it stopped (crashed, ran out of memory, was killed) or hung before it ended: it is not tried again`,
  });
}

/** An item whose work started too many times, as both stores select it (`items` columns). */
export interface ExhaustedRow extends LeasedItemRow {
  starts: number;
}

/** Each of `rows` with its `crashed` outcome, to be written under the lease that ran out. */
export function crashedItems(rows: readonly ExhaustedRow[]): CompletedItem[] {
  return rows.map((row) => ({
    item: {
      itemId: row.id,
      runId: row.run_id,
      url: row.url,
      depth: row.depth,
      parentUrl: row.parent_url,
      leaseToken: row.lease_token,
    },
    outcome: crashedOutcome(row.starts),
  }));
}

/** The pages of `rows` whose `crashed` outcome was written (`written[i]` for `rows[i]`), as {@link InterruptedItems} names them. */
export function crashedPages(
  rows: readonly ExhaustedRow[],
  written: readonly boolean[],
): InterruptedItems['crashed'] {
  return rows
    .filter((_, index) => written[index])
    .map((row) => ({ runId: row.run_id, url: row.url, starts: row.starts }));
}
