import { RUN_PARAMS } from '@webdata/contract';
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

/** A page process that records the page's URL and never finishes on its own: only an abort ends it. */
function untilAborted(processed: string[]) {
  return (item: ClaimedItem, signal: AbortSignal) =>
    new Promise<ItemOutcome>((_resolve, reject) => {
      processed.push(item.url);
      signal.addEventListener('abort', () => reject(signal.reason));
    });
}

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

  it('claims beyond its free slots and starts the next claimed page when a slot frees, without a claim between', async () => {
    store = new SqliteStore(':memory:');
    const runId = await queuedCrawlRun(store, OWNER, 6);
    const claims = vi.spyOn(store, 'claimItems');
    const finishers: (() => void)[] = [];
    const claimsAtStart: number[] = [];
    const processed: string[] = [];
    const process = (item: ClaimedItem) =>
      new Promise<ItemOutcome>((resolve) => {
        processed.push(item.url);
        claimsAtStart.push(claims.mock.calls.length);
        finishers.push(() => resolve(itemOutcome()));
      });
    pool = new WorkerPool(store, process, {
      workerId: 'w',
      concurrency: 2,
      reserve: 2,
      leaseMs: 60_000,
      idlePollMs: 10_000,
      commitDelayMs: 0,
    });
    pool.start();
    await vi.waitFor(() => expect(processed).toHaveLength(2));
    // One claim took the two slots' items and two more, which wait leased in the pool.
    expect(claims).toHaveBeenCalledTimes(1);
    expect(claims.mock.calls[0]![1]).toBe(4);
    expect(pool.waiting).toBe(2);
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({ running: 4, queued: 2 });
    finishers[0]!();
    await vi.waitFor(() => expect(processed).toHaveLength(3));
    // The third page started from the pool's own queue before any second claim.
    expect(claimsAtStart[2]).toBe(1);
    for (let finished = 1; finished < 6; finished += 1) {
      await vi.waitFor(() => expect(finishers.length).toBeGreaterThan(finished));
      finishers[finished]!();
    }
    await vi.waitFor(async () => expect((await store.getRun(OWNER, runId))!.run.status).toBe('completed'));
    // Every page once.
    expect([...processed].sort()).toEqual(
      Array.from({ length: 6 }, (_, i) => `https://s.example/${i}`).sort(),
    );
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({ succeeded: 6, running: 0 });
  });

  it('puts claimed pages still waiting for a slot back in the queue when it stops, and they run once later', async () => {
    store = new SqliteStore(':memory:');
    const runId = await queuedCrawlRun(store, OWNER, 4);
    const processed: string[] = [];
    // The first pool's only page never finishes on its own: stopping aborts it.
    pool = new WorkerPool(store, untilAborted(processed), {
      workerId: 'w1',
      concurrency: 1,
      reserve: 1,
      leaseMs: 60_000,
      idlePollMs: 10_000,
    });
    pool.start();
    await vi.waitFor(() => expect(processed).toHaveLength(1));
    expect(pool.waiting).toBe(1);
    await pool.stop(0);
    // The aborted page and the one that waited are queued again, leases released.
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({ queued: 4, running: 0 });

    const done: string[] = [];
    pool = new WorkerPool(
      store,
      async (item) => {
        done.push(item.url);
        return itemOutcome();
      },
      { workerId: 'w2', concurrency: 1, leaseMs: 60_000, idlePollMs: 10 },
    );
    pool.start();
    await vi.waitFor(async () => expect((await store.getRun(OWNER, runId))!.run.status).toBe('completed'));
    expect([...done].sort()).toEqual(Array.from({ length: 4 }, (_, i) => `https://s.example/${i}`).sort());
  });

  it('on stop, puts back at once the pages whose first request has not gone out, and drains only the started one', async () => {
    store = new SqliteStore(':memory:');
    const runId = await queuedCrawlRun(store, OWNER, 3);
    const begun: string[] = [];
    let finishStarted: (() => void) | undefined;
    // One page has its request out and finishes when told; the other two wait (as for their host's turn) until aborted.
    const process = (item: ClaimedItem, signal: AbortSignal, started: () => void) =>
      new Promise<ItemOutcome>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason));
        if (begun.push(item.url) === 1) {
          started();
          finishStarted = () => resolve(itemOutcome());
        }
      });
    pool = new WorkerPool(store, process, {
      workerId: 'w',
      concurrency: 3,
      leaseMs: 60_000,
      idlePollMs: 10_000,
    });
    pool.start();
    await vi.waitFor(() => expect(begun).toHaveLength(3));
    const stopped = pool.stop(60_000);
    // The two that had not started are back in the queue while the started one still drains.
    await vi.waitFor(async () =>
      expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({ queued: 2, running: 1 }),
    );
    finishStarted!();
    await stopped;
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({
      succeeded: 1,
      queued: 2,
      running: 0,
    });
  });

  it.each([
    ['with a reserve (the queue is its own)', 2],
    ['without a reserve (a shared queue)', 0],
  ])(
    'lends the slots of pages waiting for their host turn: another run goes on meanwhile, %s',
    async (_name, reserve) => {
      store = new SqliteStore(':memory:');
      // A run on a host with a crawl-delay, queued first, then a run of another host.
      const polite = await queuedCrawlRun(store, OWNER, 6);
      const quick = await queuedCrawlRun(store, OWNER, 6);
      const waitingForTurn: (() => void)[] = [];
      const process = (
        item: ClaimedItem,
        _signal: AbortSignal,
        started: () => void,
        hostWait: (w: boolean) => void,
      ) =>
        new Promise<ItemOutcome>((resolve) => {
          if (item.runId === quick) return resolve(itemOutcome());
          hostWait(true);
          waitingForTurn.push(() => {
            hostWait(false);
            started();
            resolve(itemOutcome());
          });
        });
      pool = new WorkerPool(store, process, {
        workerId: 'w',
        concurrency: 2,
        reserve,
        leaseMs: 60_000,
        idlePollMs: 10,
      });
      pool.start();
      // No turn of the polite host comes, yet the other run finishes in the lent slots.
      await vi.waitFor(async () => expect((await store.getRun(OWNER, quick))!.run.status).toBe('completed'));
      // The polite run's pages at that origin were not claimed while its pages waited: only those of the first claim wait.
      expect(waitingForTurn.length).toBeLessThanOrEqual(2);
      // Its pages' turns then come, one at a time, and it completes.
      for (let turn = 0; turn < 6; turn += 1) {
        await vi.waitFor(() => expect(waitingForTurn.length).toBeGreaterThan(turn));
        waitingForTurn[turn]!();
      }
      await vi.waitFor(async () => expect((await store.getRun(OWNER, polite))!.run.status).toBe('completed'));
      expect(waitingForTurn).toHaveLength(6);
    },
  );

  it('drops the claimed pages of a cancelled run that wait for a slot', async () => {
    store = new SqliteStore(':memory:');
    const runId = await queuedCrawlRun(store, OWNER, 4);
    const processed: string[] = [];
    pool = new WorkerPool(store, untilAborted(processed), {
      workerId: 'w',
      concurrency: 1,
      reserve: 1,
      leaseMs: 60_000,
      idlePollMs: 10,
    });
    pool.start();
    await vi.waitFor(() => expect(processed).toHaveLength(1));
    expect(pool.waiting).toBe(1);
    expect(await store.cancelRun(OWNER, runId)).toBeTruthy();
    pool.abortRun(runId);
    expect(pool.waiting).toBe(0);
    await vi.waitFor(() => expect(pool!.inFlight).toBe(0));
    // Nothing of the cancelled run started after the cancel.
    expect(processed).toHaveLength(1);
  });

  it('without a reserve (a queue shared with other processes) claims only its free slots, leaving the rest to others', async () => {
    store = new SqliteStore(':memory:');
    const runId = await queuedCrawlRun(store, OWNER, 4);
    const claims = vi.spyOn(store, 'claimItems');
    const processed: string[] = [];
    pool = new WorkerPool(store, untilAborted(processed), {
      workerId: 'w',
      concurrency: 2,
      leaseMs: 60_000,
      idlePollMs: 10,
    });
    pool.start();
    await vi.waitFor(() => expect(processed).toHaveLength(2));
    expect(claims.mock.calls[0]![1]).toBe(2);
    expect(pool.waiting).toBe(0);
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({ running: 2, queued: 2 });
  });

  it('without a reserve, claims a lone free slot when no second one frees soon', async () => {
    store = new SqliteStore(':memory:');
    await queuedCrawlRun(store, OWNER, 9);
    const finishers: (() => void)[] = [];
    const processed: string[] = [];
    const process = (item: ClaimedItem, signal: AbortSignal) =>
      new Promise<ItemOutcome>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason));
        processed.push(item.url);
        finishers.push(() => resolve(itemOutcome()));
      });
    // Eight slots: a claim waits for two to free, which slow pages ending apart would never give it.
    pool = new WorkerPool(store, process, {
      workerId: 'w',
      concurrency: 8,
      leaseMs: 60_000,
      idlePollMs: 60_000,
    });
    pool.start();
    await vi.waitFor(() => expect(processed).toHaveLength(8));
    finishers[0]!();
    await vi.waitFor(() => expect(processed).toHaveLength(9));
  });

  describe.each([
    ['with a reserve (the embedded store)', 2],
    ['without a reserve (a shared queue)', 0],
  ])('owners share the slots %s', (_name, reserve) => {
    it("gives a slot that frees to another key's page, then that key's next page, ahead of the first key's", async () => {
      store = new SqliteStore(':memory:');
      await queuedCrawlRun(store, 'own_slow', 8);
      const finishers = new Map<string, () => void>();
      const processed: string[] = [];
      const process = (item: ClaimedItem, signal: AbortSignal) =>
        new Promise<ItemOutcome>((resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason));
          const name = `${item.owner === 'own_slow' ? 'slow' : 'quick'}:${item.url.slice(-1)}`;
          processed.push(name);
          // The other key's first page links to its second.
          const discovered =
            name === 'quick:0'
              ? [{ url: 'https://s.example/1', key: 'q1', depth: 1, parentUrl: item.url }]
              : [];
          finishers.set(name, () => resolve(itemOutcome('succeeded', { discovered, itemLimit: 100 })));
          if (item.owner !== 'own_slow') finishers.get(name)!();
        });
      pool = new WorkerPool(store, process, {
        workerId: 'w',
        concurrency: 2,
        reserve,
        leaseMs: 60_000,
        idlePollMs: 60_000,
        commitDelayMs: 0,
      });
      pool.start();
      // The slow key holds both slots (and, with one, the reserve).
      await vi.waitFor(() => expect([processed.length, pool!.waiting]).toEqual([2, reserve]));
      expect(processed).toEqual(['slow:0', 'slow:1']);
      const quick = await store.createRun({
        owner: 'own_quick',
        type: 'crawl',
        urls: ['https://s.example/0'],
        params: RUN_PARAMS.crawl.parse({ limit: 100 }),
        items: [{ url: 'https://s.example/0', key: 'q0', depth: 0 }],
      });
      pool.poke();
      // With a reserve, the new key's page is claimed at once (beyond the full reserve).
      if (reserve > 0) await vi.waitFor(() => expect(pool!.waiting).toBe(reserve + 1));
      // One slow page ends: its slot is the other key's, and then so is the slot of that key's page.
      finishers.get('slow:0')!();
      await vi.waitFor(async () =>
        expect((await store.getRun('own_quick', quick.run.run.id))!.run.status).toBe('completed'),
      );
      // Alone again, the slow key takes the slot back.
      await vi.waitFor(() => expect(processed).toHaveLength(5));
      expect(processed).toEqual(['slow:0', 'slow:1', 'quick:0', 'quick:1', 'slow:2']);
    });
  });
});
