import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_PARAMS } from '@webdata/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryBlobStore } from '../blobs/directory-blob-store.js';
import { itemOutcome } from '../item-outcome.test-support.js';
import type { ClaimedItem, RunChange } from '../store.js';
import { PostgresStore } from './postgres-store.js';
import {
  postgresForTests,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from './throwaway-postgres.test-support.js';

const OWNER = 'own_test';

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** What only a store shared by several processes must do: concurrent claims, leases, notifications. */
describe.skipIf(!postgresForTests())('PostgresStore shared by processes', () => {
  let cluster: ThrowawayPostgres;
  const scratch = mkdtempSync(join(tmpdir(), 'webdata-pgstore-'));
  const open: PostgresStore[] = [];
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });
  afterAll(async () => {
    await cluster?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Several stores on one database and one blob directory: as many processes would have. */
  async function processes(count: number): Promise<PostgresStore[]> {
    const url = await cluster.createDatabase();
    const blobs = new DirectoryBlobStore(mkdtempSync(join(scratch, 'blobs-')));
    const stores = Array.from({ length: count }, () => new PostgresStore({ url, blobs, poolSize: 4 }));
    open.push(...stores);
    for (const store of stores) await store.open();
    return stores;
  }

  async function crawlRun(store: PostgresStore, count: number): Promise<string> {
    const urls = Array.from({ length: count }, (_, i) => `https://s.example/${i}`);
    const { run } = await store.createRun({
      owner: OWNER,
      type: 'crawl',
      urls,
      params: RUN_PARAMS.crawl.parse({}),
      items: urls.map((url) => ({ url, key: url, depth: 0 })),
    });
    return run.run.id;
  }

  it('hands each item to one worker when many claim at once (SKIP LOCKED)', async () => {
    const stores = await processes(4);
    const runIds = await Promise.all([0, 1, 2].map(() => crawlRun(stores[0]!, 40)));
    const claimed: ClaimedItem[] = [];
    // 4 processes × 3 workers each, claiming until the queue is empty, then writing what they claimed
    // one page after another, as a worker does (120 writes at once would wait on 4-connection pools
    // and on the 3 runs' rows for longer than a pool's connect timeout on a loaded machine).
    const claimedBy = await Promise.all(
      stores.flatMap((store, p) =>
        [0, 1, 2].map(async (w) => {
          const mine: ClaimedItem[] = [];
          for (;;) {
            const batch = await store.claimItems(`w${p}.${w}`, 5, 60_000);
            if (batch.length === 0) return { store, mine };
            mine.push(...batch);
            claimed.push(...batch);
          }
        }),
      ),
    );
    expect(claimed).toHaveLength(120);
    expect(new Set(claimed.map((item) => item.itemId)).size).toBe(120);
    // Every result written once, from whichever process: each run completes with 40 results.
    await Promise.all(
      claimedBy.map(async ({ store, mine }) => {
        for (const item of mine) expect(await store.completeItem(item, itemOutcome())).toBe(true);
      }),
    );
    for (const runId of runIds) {
      const run = (await stores[1]!.getRun(OWNER, runId))!.run;
      expect(run).toMatchObject({ status: 'completed', stats: { total: 40, succeeded: 40 } });
      expect((await stores[2]!.listResults(OWNER, runId, { limit: 100 }))!.data).toHaveLength(40);
    }
  });

  it('reaps an expired lease; the late worker writes nothing, not even blobs', async () => {
    const [a, b] = await processes(2);
    const runId = await crawlRun(a!, 1);
    const [held] = await a!.claimItems('dead-worker', 1, 200);
    expect(await b!.requeueInterrupted({ all: false })).toEqual({ requeued: 0, crashed: [] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Another process's reaper: the lease expired on the database's clock.
    expect(await b!.requeueInterrupted({ all: false })).toEqual({ requeued: 1, crashed: [] });
    expect(await a!.renewLease(held!, 60_000)).toBe(false);
    const [again] = await b!.claimItems('live-worker', 1, 60_000);
    expect(again!.leaseToken).not.toBe(held!.leaseToken);
    expect(await a!.completeItem(held!, itemOutcome())).toBe(false);
    expect(await b!.completeItem(again!, itemOutcome())).toBe(true);
    const results = (await a!.listResults(OWNER, runId, { limit: 10 }))!.data;
    expect(results).toHaveLength(1);
    expect(await a!.getContent(results[0]!.id, 'markdown')).toBe('# ok');
    // Only the written result's blobs exist: the refused write removed its own.
    const blobDir = (a as unknown as { options: { blobs: { root: string } } }).options.blobs.root;
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(join(blobDir, 'runs', runId))).toEqual([results[0]!.id]);
  });

  it('announces transitions to every process on commit, and re-syncs after a lost connection', async () => {
    const [writer, reader] = await processes(2);
    const seen: RunChange[] = [];
    let resyncs = 0;
    const stop = await reader!.watchRuns(
      (change) => seen.push(change),
      () => resyncs++,
    );
    try {
      const runId = await crawlRun(writer!, 2);
      await until(() => seen.some((c) => c.id === runId && c.status === 'queued'));
      const items = await writer!.claimItems('w', 2, 60_000);
      await until(() => seen.some((c) => c.id === runId && c.status === 'running'));
      for (const item of items) await writer!.completeItem(item, itemOutcome());
      await until(() => seen.some((c) => c.id === runId && c.status === 'completed'));
      const last = seen.filter((c) => c.id === runId).at(-1)!;
      expect(last.version).toBe((await writer!.getRunHead(runId))!.version);

      // The database goes away and comes back: the listener reconnects, LISTENs again and asks for a re-read.
      await cluster.restart({ downMs: 300 });
      await until(() => resyncs === 1);
      const next = await crawlRun(writer!, 1);
      await until(() => seen.some((c) => c.id === next));
      await writer!.cancelRun(OWNER, next);
      await until(() => seen.some((c) => c.id === next && c.status === 'cancelled'));
    } finally {
      await stop();
    }
  });

  it('starts while the database is down: 503 until it is back, then migrates and works', async () => {
    const url = await cluster.createDatabase();
    await cluster.kill();
    const store = new PostgresStore({
      url,
      blobs: new DirectoryBlobStore(mkdtempSync(join(scratch, 'blobs-'))),
    });
    open.push(store);
    try {
      await expect(store.getRunHead('run_x')).rejects.toMatchObject({ code: 'unavailable', status: 503 });
    } finally {
      await cluster.start();
    }
    expect(await store.getRunHead('run_x')).toBeNull();
    expect(await crawlRun(store, 1)).toMatch(/^run_/);
  });
});
