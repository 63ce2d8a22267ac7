import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../errors.js';
import { createPostgresPool, isTransientPostgresError, query, transaction } from './connection.js';
import { migratePostgres } from './migrate.js';
import {
  postgresForTests,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from './throwaway-postgres.test-support.js';

describe.skipIf(!postgresForTests())('PostgreSQL connections', () => {
  let cluster: ThrowawayPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    pool = createPostgresPool(await cluster.createDatabase(), { max: 4, connectionTimeoutMs: 1000 });
  });
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  it('runs on a throwaway cluster that listens on 127.0.0.1 only', async () => {
    const { rows } = await query<{ address: string; fsync: string }>(
      pool,
      "SELECT inet_server_addr()::text AS address, current_setting('fsync') AS fsync",
    );
    expect(rows[0]).toEqual({ address: '127.0.0.1/32', fsync: 'off' });
  });

  it('answers unavailable (503, Retry-After) while the server is down, and reconnects after', async () => {
    await query(pool, 'SELECT 1');
    await cluster.kill();
    try {
      const down = await query(pool, 'SELECT 1').catch((error: unknown) => error);
      expect(down).toBeInstanceOf(ServiceError);
      expect(down).toMatchObject({ code: 'unavailable', status: 503, retryAfterSeconds: 1 });
      const inTransaction = await transaction(pool, (client) => client.query('SELECT 1')).catch(
        (error: unknown) => error,
      );
      expect(inTransaction).toMatchObject({ code: 'unavailable', status: 503 });
    } finally {
      await cluster.start();
    }
    const { rows } = await query<{ one: number }>(pool, 'SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('runs a transaction again after a serialization failure', async () => {
    await query(pool, 'CREATE TABLE counter (n integer NOT NULL)');
    await query(pool, 'INSERT INTO counter VALUES (0)');
    // Ten serializable read-modify-writes at once: most collide, each is re-run until it commits.
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () =>
        transaction(
          pool,
          async (client) => {
            const { rows } = await client.query<{ n: number }>('SELECT n FROM counter');
            await new Promise((resolve) => setTimeout(resolve, 5));
            await client.query('UPDATE counter SET n = $1', [rows[0]!.n + 1]);
          },
          { isolation: 'serializable' },
        ).then(
          () => 'committed',
          (error: unknown) => error,
        ),
      ),
    );
    const committed = outcomes.filter((outcome) => outcome === 'committed').length;
    // Without re-runs only the first of the colliding transactions would commit.
    expect(committed).toBeGreaterThan(1);
    // One that kept colliding past its tries is a 503, never a 500.
    for (const outcome of outcomes.filter((o) => o !== 'committed'))
      expect(outcome).toMatchObject({ code: 'unavailable' });
    const { rows } = await query<{ n: number }>(pool, 'SELECT n FROM counter');
    // No lost update: every committed transaction counted once.
    expect(rows[0]!.n).toBe(committed);
  });

  it('tells transient errors from mistakes', async () => {
    const mistake = await query(pool, 'SELECT * FROM no_such_table').catch((error: unknown) => error);
    expect(mistake).not.toBeInstanceOf(ServiceError);
    expect(isTransientPostgresError(mistake)).toBe(false);
    expect(isTransientPostgresError(Object.assign(new Error('terminating'), { code: '57P01' }))).toBe(true);
    expect(isTransientPostgresError(Object.assign(new Error('no connection'), { code: '08006' }))).toBe(true);
    expect(isTransientPostgresError(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('applies each migration once, even to processes migrating at once', async () => {
    const migrations = ['CREATE TABLE migrated (id integer PRIMARY KEY)', 'INSERT INTO migrated VALUES (1)'];
    const pools = [1, 2, 3].map(() => pool);
    const applied = await Promise.all(pools.map((p) => migratePostgres(p, migrations)));
    expect(applied.flat().sort()).toEqual([1, 2]);
    expect(await migratePostgres(pool, [...migrations, 'INSERT INTO migrated VALUES (2)'])).toEqual([3]);
    const { rows } = await query<{ id: number }>(pool, 'SELECT id FROM migrated ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual([1, 2]);
  });
});
