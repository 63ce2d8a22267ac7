import { RUN_PARAMS } from '@webdata/contract';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../errors.js';
import { isSqliteBusy, retryWhileBusy } from './busy-retry.js';
import type { SqliteStore } from './sqlite-store.js';
import {
  openStoreBesideAnotherConnection,
  type StoreBesideAnotherConnection,
} from './two-connections.test-support.js';

let files: StoreBesideAnotherConnection;
let store: SqliteStore;
let other: BetterSqlite3.Database;

beforeEach(() => {
  files = openStoreBesideAnotherConnection('webdata-busy-');
  ({ store, other } = files);
});

afterEach(() => files.close());

const newRun = {
  owner: 'o',
  type: 'crawl' as const,
  urls: ['http://a.test/'],
  params: RUN_PARAMS.crawl.parse({}),
  items: [],
};

describe('a store call meeting a locked database', () => {
  it('becomes 503 unavailable with Retry-After once the budget is spent', async () => {
    other.exec('BEGIN EXCLUSIVE');
    const error = await store.createRun(newRun).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('unavailable');
    expect((error as ServiceError).retryAfterSeconds).toBe(1);
    expect(isSqliteBusy((error as ServiceError).cause)).toBe(true);
  });

  it('succeeds when the lock goes away within the budget, having written once', async () => {
    other.exec('BEGIN EXCLUSIVE');
    setTimeout(() => other.exec('COMMIT'), 200);
    const { run } = await store.createRun(newRun);
    expect((await store.listRuns({ owner: 'o', limit: 10 })).data.map((r) => r.id)).toEqual([run.run.id]);
  });

  it('passes other errors through at once', async () => {
    let tries = 0;
    const mistake = new Error('not a lock');
    await expect(
      retryWhileBusy(async () => {
        tries++;
        throw mistake;
      }),
    ).rejects.toBe(mistake);
    expect(tries).toBe(1);
  });
});
