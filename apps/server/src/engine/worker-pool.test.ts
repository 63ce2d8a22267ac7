import { RUN_PARAMS } from '@webdata/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { itemOutcome } from '../store/item-outcome.test-support.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { ClaimedItem, ItemOutcome } from '../store/store.js';
import { WorkerPool } from './worker-pool.js';

const OWNER = 'own_test';
let store: SqliteStore;
let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.stop(1_000);
  await store?.close();
});

describe('WorkerPool', () => {
  it('commits pages that finish together in one transaction, and the run completes once all are committed', async () => {
    store = new SqliteStore(':memory:');
    const urls = Array.from({ length: 8 }, (_, i) => `https://s.example/${i}`);
    const { run } = await store.createRun({
      owner: OWNER,
      type: 'crawl',
      urls,
      params: RUN_PARAMS.crawl.parse({ limit: 100 }),
      items: urls.map((url) => ({ url, key: url, depth: 0 })),
    });
    const batches = vi.spyOn(store, 'completeItems');
    // Every page is held until all eight are being processed, then they all finish in the same turn.
    const started: (() => void)[] = [];
    const process = (_item: ClaimedItem) =>
      new Promise<ItemOutcome>((resolve) => {
        started.push(() => resolve(itemOutcome()));
        if (started.length === urls.length) for (const finish of started) finish();
      });
    const settled = new Promise<void>((resolve) => {
      pool = new WorkerPool(store, process, {
        workerId: 'w',
        concurrency: 8,
        leaseMs: 60_000,
        idlePollMs: 10,
        commitDelayMs: 60_000,
        onRunChanged: () => {
          void store.getRun(OWNER, run.run.id).then((now) => now?.run.status === 'completed' && resolve());
        },
      });
    });
    pool!.start();
    await settled;
    // The delay never ran out: the batch was written as soon as no page was left in flight.
    expect(batches).toHaveBeenCalledTimes(1);
    expect(batches.mock.calls[0]![0]).toHaveLength(8);
    expect(pool!.writer.counts).toEqual({ batches: 1, outcomes: 8 });
    expect((await store.getRun(OWNER, run.run.id))!.run.stats).toMatchObject({ succeeded: 8, running: 0 });
  });
});
