import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_PARAMS } from '@webdata/contract';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryBlobStore } from './blobs/directory-blob-store.js';
import { createPostgresPool } from './postgres/connection.js';
import { migratePostgres } from './postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from './postgres/migrations.js';
import { PostgresStore } from './postgres/postgres-store.js';
import {
  postgresForTests,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from './postgres/throwaway-postgres.test-support.js';
import { migrate, SQLITE_MIGRATIONS } from './sqlite/migrations.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { ClaimedItem, Store } from './store.js';

/**
 * A database from before page starts were counted (`items.starts`), with a page leased by a
 * process that is gone and claimed many times: the migration gives it no starts, so it waits
 * again (it is not failed for its claims), and its later starts are counted as any page's.
 */
const scratch = mkdtempSync(join(tmpdir(), 'webdata-starts-'));
let cluster: ThrowawayPostgres | null = null;
beforeAll(async () => {
  if (postgresForTests()) cluster = await startThrowawayPostgres();
});
afterAll(async () => {
  await cluster?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const PARAMS = JSON.stringify(RUN_PARAMS.crawl.parse({}));
const URL_ = 'https://s.example/';

/** Requeues the old lease, then fails the page after three starts that never ended. */
async function checkMigrated(store: Store, runId: string): Promise<void> {
  expect(await store.requeueInterrupted({ all: true, maxStarts: 3 })).toEqual({ requeued: 1, crashed: [] });
  expect((await store.getRun('own_old', runId))!.run.stats).toMatchObject({ queued: 1, failed: 0 });
  for (let start = 1; start <= 3; start += 1) {
    const [item] = (await store.claimItems('w', 1, 60_000)) as [ClaimedItem];
    expect(await store.startItem(item)).toBe(true);
    expect(await store.requeueInterrupted({ all: true, maxStarts: 3 })).toEqual(
      start < 3 ? { requeued: 1, crashed: [] } : { requeued: 0, crashed: [{ runId, url: URL_, starts: 3 }] },
    );
  }
  const run = (await store.getRun('own_old', runId))!.run;
  expect(run).toMatchObject({ status: 'failed', stats: { failed: 1 } });
  const [result] = (await store.listResults('own_old', runId, { limit: 1 }))!.data;
  expect(result!.error?.code).toBe('crashed');
}

describe('a database from before page starts', () => {
  it('SQLite: its leased items start from none', async () => {
    const file = join(scratch, 'old.sqlite');
    const old = new BetterSqlite3(file);
    migrate(old, SQLITE_MIGRATIONS.slice(0, -1));
    const at = new Date().toISOString();
    old
      .prepare(
        `INSERT INTO runs (id, owner, type, status, urls, params, created_at, updated_at, started_at)
         VALUES ('run_old', 'own_old', 'crawl', 'running', ?, ?, ?, ?, ?)`,
      )
      .run(JSON.stringify([URL_]), PARAMS, at, at, at);
    old
      .prepare(
        `INSERT INTO items (id, run_id, url, url_key, depth, status, attempts, lease_owner, lease_token, lease_until, updated_at)
         VALUES ('itm_old', 'run_old', ?, ?, 0, 'running', 7, 'wrk_gone', 'token', 0, ?)`,
      )
      .run(URL_, URL_, at);
    old.close();
    const store = new SqliteStore(file);
    try {
      await checkMigrated(store, 'run_old');
    } finally {
      await store.close();
    }
  });

  it.skipIf(!postgresForTests())('PostgreSQL: its leased items start from none', async () => {
    const url = await cluster!.createDatabase();
    const old = createPostgresPool(url);
    try {
      await migratePostgres(old, POSTGRES_MIGRATIONS.slice(0, -1));
      await old.query(
        `INSERT INTO runs (id, owner, type, status, urls, params, created_at, updated_at, started_at)
         VALUES ('run_old', 'own_old', 'crawl', 'running', $1, $2, now(), now(), now())`,
        [JSON.stringify([URL_]), PARAMS],
      );
      await old.query(
        `INSERT INTO items (id, run_id, url, url_key, depth, status, attempts, lease_owner, lease_token, lease_until, updated_at)
         VALUES ('itm_old', 'run_old', $1, $1, 0, 'running', 7, 'wrk_gone', 'token', now() - interval '1 minute', now())`,
        [URL_],
      );
    } finally {
      await old.end();
    }
    const store = new PostgresStore({ url, blobs: new DirectoryBlobStore(join(scratch, 'blobs')) });
    try {
      await store.open();
      await checkMigrated(store, 'run_old');
    } finally {
      await store.close();
    }
  });
});
