import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../errors.js';
import {
  createPostgresPool,
  isCommitOutcomeUnknown,
  isTransientPostgresError,
  query,
  transaction,
} from './connection.js';
import { migratePostgres } from './migrate.js';
import {
  postgresForTests,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from './throwaway-postgres.test-support.js';

describe.skipIf(!postgresForTests())('PostgreSQL connections', () => {
  let cluster: ThrowawayPostgres;
  let pool: pg.Pool;
  let databaseUrl: string;
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    databaseUrl = await cluster.createDatabase();
    pool = createPostgresPool(databaseUrl, { max: 4, connectionTimeoutMs: 1000 });
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

  it('keeps every acknowledged commit through an immediate stop (synchronous commit, whatever the server says)', async () => {
    // The throwaway cluster runs with synchronous_commit = off, like a server tuned for speed; the pool's sessions turn it on.
    const plain = new pg.Client({ connectionString: databaseUrl });
    await plain.connect();
    const serverDefault = (await plain.query('SHOW synchronous_commit')).rows[0].synchronous_commit;
    await plain.end();
    expect(serverDefault).toBe('off');
    const { rows: session } = await query(pool, 'SHOW synchronous_commit');
    expect(session[0]!.synchronous_commit).toBe('on');
    await query(pool, 'CREATE TABLE acknowledged (id integer PRIMARY KEY)');
    const acknowledged: number[] = [];
    let next = 0;
    let writing = true;
    // Four writers commit as fast as they can while the server is stopped like a crash (immediate).
    const writers = [1, 2, 3, 4].map(async () => {
      while (writing) {
        const id = next++;
        try {
          await transaction(pool, (client) => client.query('INSERT INTO acknowledged VALUES ($1)', [id]));
          acknowledged.push(id);
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await cluster.kill();
    writing = false;
    await Promise.all(writers);
    await cluster.start();
    const { rows } = await query<{ id: number }>(pool, 'SELECT id FROM acknowledged');
    const present = new Set(rows.map((row) => row.id));
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.filter((id) => !present.has(id))).toEqual([]);
  });

  it('says when a COMMIT got no answer, and does not run that transaction again', async () => {
    await query(pool, 'CREATE TABLE unanswered (n integer NOT NULL)');
    let runs = 0;
    const outcome = await transaction(pool, async (client) => {
      runs++;
      await client.query('INSERT INTO unanswered VALUES (1)');
      // The COMMIT reaches the server, and the connection breaks before its answer is read.
      const send = client.query.bind(client) as (text: string) => Promise<unknown>;
      (client as unknown as { query: (text: string) => Promise<unknown> }).query = async (text: string) => {
        const answer = await send(text);
        if (text.endsWith('COMMIT')) throw new Error('Connection terminated unexpectedly');
        return answer;
      };
    }).catch((error: unknown) => error);
    expect(outcome).toMatchObject({ code: 'unavailable', status: 503 });
    expect(isCommitOutcomeUnknown(outcome)).toBe(true);
    expect(runs).toBe(1);
    const { rows } = await query<{ n: number }>(pool, 'SELECT n FROM unanswered');
    expect(rows).toEqual([{ n: 1 }]);
    // A transaction that failed before its COMMIT is a plain failure.
    const before = await transaction(pool, (client) => client.query('SELECT * FROM no_such_table')).catch(
      (error: unknown) => error,
    );
    expect(isCommitOutcomeUnknown(before)).toBe(false);
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
