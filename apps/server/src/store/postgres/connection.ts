import type pg from 'pg';
import { ServiceError } from '../../errors.js';
import { storeUnavailable } from '../unavailable.js';
import { pgModule } from './pg-module.js';

/** Settings of a connection pool to the shared database. */
export interface PostgresPoolOptions {
  /** Connections this process keeps at most (API and workers share them). */
  max?: number;
  /** How long a request waits for a connection before it is refused as unavailable. */
  connectionTimeoutMs?: number;
  /** Called with errors of idle connections (the server went away); they are dropped and replaced on demand. */
  onIdleError?: (error: Error) => void;
}

/**
 * A pool of connections to `url`. Reconnection is the pool's: a connection
 * that breaks is discarded and the next query opens a new one, so a restarted
 * server is picked up without anything else to do. Queries made while the
 * server is away fail with {@link storeUnavailable}'s error.
 */
export function createPostgresPool(url: string, options: PostgresPoolOptions = {}): pg.Pool {
  const pool = new (pgModule().Pool)({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
    idleTimeoutMillis: 30_000,
    // A statement stuck behind a lock must not hold an HTTP request forever.
    statement_timeout: 30_000,
    application_name: 'webdata',
    // Every answer the API gives (a run created, a result written) is a commit: it must survive a crash
    // of the database server, whatever the server's own default. With `synchronous_commit = off` a commit
    // is acknowledged before its WAL is written, and a crash or an immediate stop loses the last ones.
    options: '-c synchronous_commit=on',
  });
  // Without a listener an idle connection's error (server restart) would crash the process.
  pool.on('error', (error) => options.onIdleError?.(error));
  return pool;
}

/** SQLSTATE classes and codes after which the same work can simply be tried again. */
const RETRYABLE_IN_PLACE = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

/** SQLSTATEs that mean the server is (for now) not there: shutting down, starting up, out of connections. */
const SERVER_AWAY = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '55P03', // lock_not_available
  '57014', // query_canceled (statement timeout)
]);

/** Node socket errors of a connection that was refused or cut. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTCONN',
]);

/** True for a serialization failure or deadlock: the transaction can run again as it is. */
export function isRetryableConflict(error: unknown): boolean {
  return RETRYABLE_IN_PLACE.has((error as { code?: unknown })?.code as string);
}

/**
 * True when `error` says the database is away or overloaded for a moment
 * (connection refused or lost, server shutting down or starting, `08xxx`
 * connection exceptions, too many connections, a conflict that outlived its
 * retries) rather than that the query is wrong.
 */
export function isTransientPostgresError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') || SERVER_AWAY.has(code) || RETRYABLE_IN_PLACE.has(code)) return true;
    if (SOCKET_ERRORS.has(code)) return true;
  }
  // pg reports a cut connection and a pool time-out with messages only.
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|not queryable/i.test(
    error.message,
  );
}

/** Rethrows `error` as {@link storeUnavailable} when it is transient, else as it is. */
export function mapPostgresError(error: unknown): never {
  if (error instanceof ServiceError) throw error;
  if (isTransientPostgresError(error)) throw storeUnavailable(error);
  throw error;
}

/** Runs one statement on the pool, mapping a lost database to {@link storeUnavailable}. */
export async function query<R extends pg.QueryResultRow = pg.QueryResultRow>(
  pool: pg.Pool,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResult<R>> {
  try {
    return await pool.query<R>(text, values);
  } catch (error) {
    mapPostgresError(error);
  }
}

/**
 * Statements to run at the very end of a transaction, sent with its COMMIT
 * in one message (so without parameters: values in them are escaped with
 * `client.escapeLiteral`). For statements that take a lock every writer
 * needs: it is then held for the server's time only, never across a round
 * trip to a busy process.
 */
export interface AtCommit {
  add(sql: string): void;
}

/**
 * The cause of the unavailable error a transaction throws when the connection
 * broke while its COMMIT was on the way: the database may or may not have
 * committed, so nothing the transaction wrote may be undone on that account
 * (blobs it records, for one).
 */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super('the connection broke during COMMIT: the transaction may have committed', { cause });
    this.name = 'CommitOutcomeUnknown';
  }
}

/** True when `error` is a transaction's failure whose COMMIT may have been applied all the same. */
export function isCommitOutcomeUnknown(error: unknown): boolean {
  return (error as { cause?: unknown })?.cause instanceof CommitOutcomeUnknown;
}

/** Tries of a transaction that keeps meeting serialization failures or deadlocks. */
const CONFLICT_TRIES = 5;

/**
 * Runs `work` in one transaction on one connection of `pool`. A serialization
 * failure or deadlock runs it again (a few times, with a short random pause);
 * a lost database becomes {@link storeUnavailable}. `work` must not have side
 * effects outside the database, since it may run more than once.
 */
export async function transaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, atCommit: AtCommit) => Promise<T>,
  options: { isolation?: 'read committed' | 'repeatable read' | 'serializable' } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      mapPostgresError(error);
    }
    let broken: Error | undefined;
    // Checked out, a connection has no error listener of the pool's: one that breaks between two
    // statements (the server shutting down) would otherwise crash the process.
    const onError = (error: Error) => {
      broken = error;
    };
    client.on('error', onError);
    let committing = false;
    try {
      await client.query(options.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation}` : 'BEGIN');
      const final: string[] = [];
      const result = await work(client, { add: (sql) => final.push(sql) });
      // One message: the last statements and the commit run on the server without a round trip between.
      committing = true;
      await client.query([...final, 'COMMIT'].join(';\n'));
      return result;
    } catch (error) {
      // A conflict is a definite rollback; a lost connection (or a server going away) leaves it open.
      if (committing && isTransientPostgresError(error) && !isRetryableConflict(error)) {
        // No answer to the COMMIT: it may have been applied. Never run again (it would do the work twice).
        broken ??= error as Error;
        throw storeUnavailable(new CommitOutcomeUnknown(error));
      }
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        // The connection is gone: do not hand it back to the pool.
        broken = rollbackError;
      });
      if (isRetryableConflict(error) && attempt < CONFLICT_TRIES) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
        continue;
      }
      mapPostgresError(error);
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }
}
