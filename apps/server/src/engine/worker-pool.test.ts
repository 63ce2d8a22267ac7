import { afterEach, describe, expect, it, vi } from 'vitest';
import { itemOutcome, queuedCrawlRun } from '../store/item-outcome.test-support.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { ClaimedItem, ItemOutcome } from '../store/store.js';
import { WorkerPool } from './worker-pool.js';

const OWNER = 'own_test';
const PAGES = 8;
let store: SqliteStore;
let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.stop(1_000);
  await store?.close();
});

describe('WorkerPool', () => {
  it('commits pages that finish together in one transaction, and the run completes once all are committed', async () => {
    store = new SqliteStore(':memory:');
    const runId = await queuedCrawlRun(store, OWNER, PAGES);
    const batches = vi.spyOn(store, 'completeItems');
    // Every page is held until all eight are being processed, then they all finish in the same turn.
    const started: (() => void)[] = [];
    const process = (_item: ClaimedItem) =>
      new Promise<ItemOutcome>((resolve) => {
        started.push(() => resolve(itemOutcome()));
        if (started.length === PAGES) for (const finish of started) finish();
      });
    const settled = new Promise<void>((resolve) => {
      pool = new WorkerPool(store, process, {
        workerId: 'w',
        concurrency: PAGES,
        leaseMs: 60_000,
        idlePollMs: 10,
        commitDelayMs: 60_000,
        onRunChanged: () => {
          void store.getRun(OWNER, runId).then((now) => now?.run.status === 'completed' && resolve());
        },
      });
    });
    pool!.start();
    await settled;
    // The delay never ran out: the batch was written as soon as no page was left in flight.
    expect(batches).toHaveBeenCalledTimes(1);
    expect(batches.mock.calls[0]![0]).toHaveLength(PAGES);
    expect(pool!.writer.counts).toEqual({ batches: 1, outcomes: PAGES });
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({ succeeded: PAGES, running: 0 });
  });
});
