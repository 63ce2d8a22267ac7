import { afterEach, describe, expect, it, vi } from 'vitest';
import { itemOutcome, queuedCrawlRun } from '../store/item-outcome.test-support.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { ClaimedItem } from '../store/store.js';
import { ResultWriter } from './result-writer.js';

const OWNER = 'own_test';
let store: SqliteStore;
afterEach(() => store?.close());

/** A crawl run of `count` pages, all claimed by one worker. */
async function claimedRun(count: number): Promise<{ runId: string; items: ClaimedItem[] }> {
  store = new SqliteStore(':memory:');
  const runId = await queuedCrawlRun(store, OWNER, count);
  const items = await store.claimItems('w', count, 60_000);
  return { runId, items };
}

describe('ResultWriter', () => {
  it('writes outcomes handed in together in one transaction, and counts none before it commits', async () => {
    const { runId, items } = await claimedRun(6);
    const batches = vi.spyOn(store, 'completeItems');
    const writer = new ResultWriter(store, { maxBatch: 100, maxDelayMs: 60_000 });
    const written = items.map((item) => writer.complete(item, itemOutcome()));
    // Handed in, not committed: the run still shows every page running, no result exists.
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({ running: 6, succeeded: 0 });
    expect((await store.listResults(OWNER, runId, { limit: 10 }))!.data).toHaveLength(0);
    await writer.flush();
    expect(await Promise.all(written)).toEqual([true, true, true, true, true, true]);
    expect(batches).toHaveBeenCalledTimes(1);
    expect(batches.mock.calls[0]![0]).toHaveLength(6);
    expect(writer.counts).toEqual({ batches: 1, outcomes: 6 });
    expect((await store.getRun(OWNER, runId))!.run).toMatchObject({
      status: 'completed',
      stats: { succeeded: 6, running: 0 },
    });
  });

  it('writes a full batch at once and a lone outcome after its delay, without a flush', async () => {
    const { runId, items } = await claimedRun(3);
    const batches = vi.spyOn(store, 'completeItems');
    const writer = new ResultWriter(store, { maxBatch: 2, maxDelayMs: 5 });
    const results = await Promise.all(items.map((item) => writer.complete(item, itemOutcome())));
    expect(results).toEqual([true, true, true]);
    expect(batches.mock.calls.map(([batch]) => batch.length)).toEqual([2, 1]);
    expect((await store.getRun(OWNER, runId))!.run.stats.succeeded).toBe(3);
  });

  it('writes large outcomes in transactions of their own, with a turn of the event loop between them', async () => {
    const { items } = await claimedRun(4);
    const order: string[] = [];
    const batches = vi.spyOn(store, 'completeItems').mockImplementation(async (batch) => {
      order.push(`write ${batch.length}`);
      // A request that arrives while this transaction holds the thread.
      setImmediate(() => order.push('request'));
      return batch.map(() => true);
    });
    const writer = new ResultWriter(store, { maxBatch: 100, maxDelayMs: 60_000, maxBatchChars: 1000 });
    const big = () => itemOutcome('succeeded', { contents: { markdown: 'x'.repeat(600) } });
    // Two small ones share a transaction; each large one has its own (600 + 600 is over 1000).
    const written = [
      writer.complete(items[0]!, itemOutcome()),
      writer.complete(items[1]!, itemOutcome()),
      writer.complete(items[2]!, big()),
      writer.complete(items[3]!, big()),
    ];
    await writer.flush();
    expect(await Promise.all(written)).toEqual([true, true, true, true]);
    expect(batches.mock.calls.map(([batch]) => batch.length)).toEqual([3, 1]);
    // The request that arrived during the first transaction is answered before the second begins.
    expect(order.slice(0, 3)).toEqual(['write 3', 'request', 'write 1']);
  });

  it('leaves out only the page whose lease was lost', async () => {
    const { runId, items } = await claimedRun(4);
    const writer = new ResultWriter(store, { maxBatch: 100, maxDelayMs: 60_000 });
    await store.releaseItem(items[2]!);
    const written = items.map((item) => writer.complete(item, itemOutcome()));
    await writer.flush();
    expect(await Promise.all(written)).toEqual([true, true, false, true]);
    const urls = (await store.listResults(OWNER, runId, { limit: 10 }))!.data.map((result) => result.url);
    expect(urls.sort()).toEqual(['https://s.example/0', 'https://s.example/1', 'https://s.example/3']);
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({ succeeded: 3, queued: 1 });
  });

  it('fails only the outcome the store cannot write: the rest of its batch is written', async () => {
    const { runId, items } = await claimedRun(3);
    const writer = new ResultWriter(store, { maxBatch: 100, maxDelayMs: 60_000 });
    // JSON cannot hold a BigInt: writing this result throws inside the transaction.
    const broken = itemOutcome();
    broken.result.data = { n: 1n } as unknown as Record<string, unknown>;
    const written = [
      writer.complete(items[0]!, itemOutcome()),
      writer.complete(items[1]!, broken),
      writer.complete(items[2]!, itemOutcome()),
    ].map((promise) => promise.then(String, (error: Error) => error.name));
    await writer.flush();
    expect(await Promise.all(written)).toEqual(['true', 'TypeError', 'true']);
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({ succeeded: 2, running: 1 });
  });
});
