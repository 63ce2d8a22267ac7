import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteStore } from './sqlite-store.js';

/** A store on a database file of its own, and a second connection to the same file. */
export interface StoreBesideAnotherConnection {
  store: SqliteStore;
  /** Another connection: it takes the write lock (`BEGIN IMMEDIATE`) to show what the store does meanwhile. */
  other: BetterSqlite3.Database;
  /** Ends any transaction left open on `other`, closes both and removes the file's folder. */
  close(): Promise<void>;
}

/**
 * Opens a {@link SqliteStore} on a fresh file in a temporary folder (`prefix` names it) beside a
 * second connection to that file: for tests of the store while another connection holds the lock.
 */
export function openStoreBesideAnotherConnection(prefix: string): StoreBesideAnotherConnection {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = new SqliteStore(join(dir, 'webdata.sqlite'));
  const other = new BetterSqlite3(join(dir, 'webdata.sqlite'));
  return {
    store,
    other,
    async close() {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
