import type pg from 'pg';
import { transaction } from './connection.js';

/**
 * One migration: SQL, or a function for one that needs code (data computed by the application),
 * run with the migration's transaction's client.
 */
export type PostgresMigration = string | ((client: pg.PoolClient) => Promise<void>);

/** Any number that no other advisory lock of ours uses: held while migrations run. */
const MIGRATION_LOCK = 7_310_015;

/**
 * Brings the database to the latest of `migrations` (numbered from 1 by
 * their position). Each runs once, in order, in its own transaction, and is
 * recorded in `schema_migrations`. Several processes starting at once take
 * turns on an advisory lock, so each migration runs exactly once. Returns
 * the numbers applied by this call.
 */
export async function migratePostgres(
  pool: pg.Pool,
  migrations: readonly PostgresMigration[],
): Promise<number[]> {
  const applied: number[] = [];
  for (let version = 1; version <= migrations.length; version++) {
    const ran = await transaction(pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      // Under the lock: two processes creating it at once would collide.
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version]);
      if (done.rowCount) return false;
      const migration = migrations[version - 1]!;
      if (typeof migration === 'string') await client.query(migration);
      else await migration(client);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      return true;
    });
    if (ran) applied.push(version);
  }
  return applied;
}
