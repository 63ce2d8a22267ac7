import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type {
  PageErrorInfo,
  Result,
  ResultContentFormat,
  ResultStatus,
  Run,
  RunErrorInfo,
  RunStats,
  RunStatus,
  RunType,
} from '@webdata/contract';
import { LIMITS } from '@webdata/contract';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import {
  ACTIVE_RUN_STATUSES,
  cancelDecision,
  claimDecision,
  ITEM_MOVES,
  type ItemMove,
  LEASED_ITEM_STATUS,
  NEW_ITEM_STATUS,
  NEW_RUN_STATUS,
  type RunDecision,
  retryDecision,
  settle,
  WAITING_ITEM_STATUS,
} from '../../engine/run-state.js';
import { newId } from '../../ids.js';
import { migrateSearchIndex, SqliteSearchIndex } from '../../search/index.js';
import { CLAIM_LOOKAHEAD, claimOrder, originPrefixes, type WaitingOrigins } from '../claim-order.js';
import { crashedItems, crashedPages, type ExhaustedRow, MAX_PAGE_STARTS } from '../crashed-outcome.js';
import { decodeCursor, encodeCursor, resultsCursorTag } from '../cursor.js';
import { type KnownUrlKey, KnownUrlKeys } from '../known-url-keys.js';
import type { LeasedItemRow } from '../leased-item-row.js';
import { batchChars } from '../outcome-chars.js';
import { mergeChanges } from '../run-changes.js';
import {
  ActiveRunLimitError,
  type ApiKeyRecord,
  type ClaimedItem,
  type CompletedItem,
  type InterruptedItems,
  type ItemOutcome,
  type LeasedItem,
  type NewRun,
  type Page,
  type RunChanges,
  type RunChangesQuery,
  type RunListQuery,
  type Store,
  type StoredDocument,
  type StoredRun,
} from '../store.js';
import { type BatchWrite, BatchWriteThread, type CommittedRun } from './batch-write-thread.js';
import { BUSY_TIMEOUT_MS, retryStoreCallsWhileBusy } from './busy-retry.js';
import { migrate } from './migrations.js';

interface RunRow {
  seq: number;
  id: string;
  owner: string;
  type: string;
  status: string;
  urls: string;
  params: string;
  error: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  version: number;
}

interface ResultRow {
  seq: number;
  id: string;
  run_id: string;
  url: string;
  final_url: string | null;
  status: string;
  title: string | null;
  depth: number;
  parent_url: string | null;
  http_status: number | null;
  content_type: string | null;
  data: string | null;
  has_screenshot: number;
  screenshot_error: string | null;
  error: string | null;
  created_at: string;
}

/** What a batch write knows of a run it writes to: its item count once read (the item limit's room). */
interface RunRoom {
  items: number | undefined;
  /** URL keys the run's rows hold once this transaction commits (see `KnownUrlKeys`). */
  keys: KnownUrlKey[];
  /** Whether this transaction settled the run. */
  settled: boolean;
}

/**
 * Characters of contents and indexed text from which a batch of finished pages is written on the
 * batch write thread rather than on the main thread: SQLite's statements are synchronous, about
 * 35 ms a MB there (a 9 MB page in three formats held every request for 0.3-0.6 s). Below it
 * a batch holds the loop for less than ~70 ms and stays on the main connection: ordinary pages'
 * batches are not copied to another thread, nor contend with the main connection's own writes
 * (claims, leases) for the file's write lock.
 */
export const OFF_THREAD_BATCH_CHARS = 2 * 1024 * 1024;

/** Options of {@link SqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * Whether batches of at least {@link OFF_THREAD_BATCH_CHARS} are written by a thread of their own
   * (its own connection; default true for a file, never for `:memory:`, which another connection
   * cannot open).
   */
  batchWriteThread?: boolean;
  /**
   * The search's in-memory first stage (see `SqliteSearchIndexOptions.mirror`): its byte budget, 0
   * to turn it off (`WEBDATA_SEARCH_MEMORY_MB`). Default 512 MB.
   */
  searchMirrorBytes?: number;
}

const EMPTY_STATS: RunStats = { total: 0, queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
const now = () => new Date().toISOString();
const parseJson = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/**
 * The embedded store: one SQLite file in WAL mode. Every write that must
 * happen together (an item's result, its contents, the URLs it found and the
 * run's new state) is one transaction, so a crash loses nothing half-written.
 */
export class SqliteStore implements Store {
  readonly db: Database;
  readonly search: SqliteSearchIndex;
  readonly shared = false;
  readonly description: string;

  /** Prepared statements by SQL text: preparing costs more than running most of these queries. */
  private readonly statements = new Map<string, Statement>();

  /** Discovered links' keys each run already holds: their inserts are skipped. */
  private readonly knownKeys = new KnownUrlKeys();

  private sql<P extends unknown[] = unknown[], R = unknown>(text: string): Statement<P, R> {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement as unknown as Statement<P, R>;
  }

  /** Writes large batches off the main thread (none for `:memory:`). */
  private readonly writeThread: BatchWriteThread | null;

  constructor(file: string, options: SqliteStoreOptions = {}) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.description = `SQLite ${file}`;
    this.db = new BetterSqlite3(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    // Opening may wait for another process's migration; serving must not (see busy-retry.ts).
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = OFF');
    migrate(this.db);
    migrateSearchIndex(this.db);
    this.search = new SqliteSearchIndex(this.db, { mirror: { budgetBytes: options.searchMirrorBytes } });
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    this.writeThread =
      file !== ':memory:' && options.batchWriteThread !== false ? new BatchWriteThread(file) : null;
    retryStoreCallsWhileBusy(this);
  }

  private statsOf(runId: string): RunStats {
    const rows = this.sql<[string], { status: string; n: number }>(
      'SELECT status, count(*) AS n FROM items WHERE run_id = ? GROUP BY status',
    ).all(runId);
    const stats = { ...EMPTY_STATS };
    for (const { status, n } of rows) {
      if (status in stats) stats[status as keyof RunStats] = n;
      stats.total += n;
    }
    return stats;
  }

  private toStored(row: RunRow): StoredRun {
    const run: Run = {
      id: row.id,
      status: row.status as RunStatus,
      type: row.type as RunType,
      urls: JSON.parse(row.urls) as string[],
      created_at: row.created_at,
      updated_at: row.updated_at,
      started_at: row.started_at,
      finished_at: row.finished_at,
      params: JSON.parse(row.params) as Record<string, unknown>,
      stats: this.statsOf(row.id),
      error: parseJson<RunErrorInfo>(row.error),
    };
    return { run, owner: row.owner, version: row.version };
  }

  private runRow(runId: string): RunRow | undefined {
    return this.sql<[string], RunRow>('SELECT * FROM runs WHERE id = ?').get(runId);
  }

  private ownedRunRow(owner: string, runId: string): RunRow | undefined {
    const row = this.runRow(runId);
    return row && row.owner === owner ? row : undefined;
  }

  private touch(runId: string, timestamp = now()): void {
    this.sql('UPDATE runs SET version = version + 1, updated_at = ? WHERE id = ?').run(timestamp, runId);
  }

  /**
   * Writes a change of a run that the engine's state machine decided, with a
   * new version (the caller moves the decision's items in the same transaction).
   */
  private writeDecision(runId: string, decision: RunDecision, timestamp: string): void {
    const sets = ['status = ?', 'updated_at = ?', 'version = version + 1'];
    const args: (string | null)[] = [decision.status, timestamp];
    if (decision.error !== undefined) {
      sets.push('error = ?');
      args.push(decision.error && JSON.stringify(decision.error));
    }
    if (decision.finished === 'now') {
      sets.push('finished_at = ?');
      args.push(timestamp);
    } else if (decision.finished === 'clear') {
      sets.push('finished_at = NULL');
    }
    if (decision.started) {
      sets.push('started_at = coalesce(started_at, ?)');
      args.push(timestamp);
    }
    this.sql(`UPDATE runs SET ${sets.join(', ')} WHERE id = ?`).run(...args, runId);
  }

  /** A new version of a run whose items changed: settled when the state machine says its items are all done. */
  /** A batch's write to a run: settles it when no work is left (then true), else a new version. */
  private changed(runId: string, timestamp: string): boolean {
    const row = this.runRow(runId);
    // Counting the run's stats reads all its items; while one is queued or running (every batch but
    // the last, one indexed look-up) the run cannot settle, so they are counted only when none is.
    const workLeft =
      this.sql('SELECT 1 FROM items WHERE run_id = ? AND status IN (?, ?) LIMIT 1').get(
        runId,
        WAITING_ITEM_STATUS,
        LEASED_ITEM_STATUS,
      ) !== undefined;
    const settled = row && !workLeft && settle(row.status as RunStatus, this.statsOf(runId));
    if (settled) this.writeDecision(runId, settled, timestamp);
    else this.touch(runId, timestamp);
    return Boolean(settled);
  }

  async createRun(input: NewRun): Promise<{ run: StoredRun; created: boolean }> {
    return this.db.transaction(() => {
      const timestamp = now();
      if (input.idempotencyKey !== undefined) {
        const existing = this.sql<[string, string], RunRow>(
          'SELECT * FROM runs WHERE owner = ? AND idempotency_key = ?',
        ).get(input.owner, input.idempotencyKey);
        if (existing) {
          const age = Date.now() - Date.parse(existing.created_at);
          if (age < LIMITS.idempotencyTtlSeconds * 1000)
            return { run: this.toStored(existing), created: false };
          this.sql('UPDATE runs SET idempotency_key = NULL WHERE id = ?').run(existing.id);
        }
      }
      this.checkActiveRuns(input.owner, input.maxActiveRuns);
      const runId = newId('run');
      this.sql(
        `INSERT INTO runs (id, owner, type, status, urls, params, created_at, updated_at, idempotency_key)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        runId,
        input.owner,
        input.type,
        NEW_RUN_STATUS,
        JSON.stringify(input.urls),
        JSON.stringify(input.params),
        timestamp,
        timestamp,
        input.idempotencyKey ?? null,
      );
      const insertItem = this.sql(
        `INSERT OR IGNORE INTO items (id, run_id, url, url_key, depth, parent_url, status, updated_at)
         VALUES (?, ?, ?, ?, ?, NULL, ?, ?)`,
      );
      for (const item of input.items) {
        insertItem.run(newId('itm'), runId, item.url, item.key, item.depth, NEW_ITEM_STATUS, timestamp);
      }
      return { run: this.toStored(this.runRow(runId)!), created: true };
    })();
  }

  /** Throws {@link ActiveRunLimitError} when the owner has `limit` runs queued or running (inside the writing transaction). */
  private checkActiveRuns(owner: string, limit: number | undefined): void {
    if (limit === undefined) return;
    // The active runs of every owner through `runs_active`: as few as the owners' limits allow.
    const { active } = this.sql<string[], { active: number }>(
      `SELECT count(*) AS active FROM runs WHERE status IN (${marks(ACTIVE_RUN_STATUSES)}) AND owner = ?`,
    ).get(...ACTIVE_RUN_STATUSES, owner)!;
    if (active >= limit) throw new ActiveRunLimitError(limit);
  }

  async getRun(owner: string, runId: string): Promise<StoredRun | null> {
    const row = this.ownedRunRow(owner, runId);
    return row ? this.toStored(row) : null;
  }

  async getRunHead(runId: string): Promise<{ owner: string; version: number } | null> {
    return (
      this.sql<[string], { owner: string; version: number }>(
        'SELECT owner, version FROM runs WHERE id = ?',
      ).get(runId) ?? null
    );
  }

  async listRuns(query: RunListQuery): Promise<Page<Run>> {
    const where = ['owner = ?'];
    const args: (string | number)[] = [query.owner];
    if (query.status) {
      where.push('status = ?');
      args.push(query.status);
    }
    if (query.type) {
      where.push('type = ?');
      args.push(query.type);
    }
    if (query.ids) {
      where.push(`id IN (${query.ids.map(() => '?').join(',')})`);
      args.push(...query.ids);
    }
    if (query.cursor) {
      where.push('seq < ?');
      args.push(decodeCursor('runs', query.cursor));
    }
    const rows = this.sql<(string | number)[], RunRow>(
      `SELECT * FROM runs WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`,
    ).all(...args, query.limit + 1);
    const more = rows.length > query.limit;
    const pageRows = rows.slice(0, query.limit);
    return {
      data: pageRows.map((row) => this.toStored(row).run),
      next_cursor: more ? encodeCursor('runs', pageRows.at(-1)!.seq) : null,
    };
  }

  async changeCursor(): Promise<number> {
    return this.sql<[], { last: number }>('SELECT last FROM run_change_counter WHERE id = 1').get()!.last;
  }

  async listRunChanges(query: RunChangesQuery): Promise<RunChanges> {
    const ids = query.ids ?? [];
    const idFilter = query.ids ? ` AND id IN (${ids.map(() => '?').join(',')})` : '';
    const rows = this.sql<(string | number)[], RunRow & { change_seq: number }>(
      `SELECT * FROM runs WHERE owner = ? AND change_seq > ?${idFilter} ORDER BY change_seq LIMIT ?`,
    ).all(query.owner, query.since, ...ids, query.limit);
    if (!query.ids) {
      // Key-wide: runs deleted since, from their tombstones, in the same order of changes.
      const deletions = this.sql<(string | number)[], { run_id: string; change_seq: number }>(
        'SELECT run_id, change_seq FROM run_deletions WHERE owner = ? AND change_seq > ? ORDER BY change_seq LIMIT ?',
      ).all(query.owner, query.since, query.limit);
      return mergeChanges(
        rows.map((row) => ({ seq: row.change_seq, run: this.toStored(row).run })),
        deletions.map((row) => ({ seq: row.change_seq, deleted: row.run_id })),
        query,
      );
    }
    let missing: string[] = [];
    if (query.ids) {
      const present = new Set(
        this.sql<string[], { id: string }>(
          `SELECT id FROM runs WHERE owner = ? AND id IN (${ids.map(() => '?').join(',')})`,
        )
          .all(query.owner, ...ids)
          .map((row) => row.id),
      );
      missing = ids.filter((id) => !present.has(id));
    }
    return {
      runs: rows.map((row) => this.toStored(row).run),
      cursor: rows.at(-1)?.change_seq ?? query.since,
      missing,
    };
  }

  async cancelRun(owner: string, runId: string): Promise<StoredRun | null> {
    return this.db.transaction(() => {
      const row = this.ownedRunRow(owner, runId);
      const decision = row && cancelDecision(row.status as RunStatus);
      if (!decision?.items) return null;
      const timestamp = now();
      const move = decision.items;
      this.sql(
        `UPDATE items SET status = ?, lease_owner = NULL, lease_token = NULL, updated_at = ? WHERE run_id = ? AND status IN (${marks(move.from)})`,
      ).run(move.to, timestamp, runId, ...move.from);
      this.writeDecision(runId, decision, timestamp);
      return this.toStored(this.runRow(runId)!);
    })();
  }

  async retryRun(owner: string, runId: string, maxActiveRuns?: number): Promise<StoredRun | null> {
    return this.db.transaction(() => {
      const row = this.ownedRunRow(owner, runId);
      const decision = row && retryDecision(row.status as RunStatus, this.statsOf(runId));
      if (!decision) return null;
      this.checkActiveRuns(owner, maxActiveRuns);
      const timestamp = now();
      if (decision.items) this.requeueForRetry(runId, decision.items, timestamp);
      this.writeDecision(runId, decision, timestamp);
      return this.toStored(this.runRow(runId)!);
    })();
  }

  /** Queues a retried run's items again, with fresh attempts and starts; their earlier results go. */
  private requeueForRetry(runId: string, move: ItemMove, timestamp: string): void {
    const retried = this.sql<string[], { id: string }>(
      `SELECT id FROM items WHERE run_id = ? AND status IN (${marks(move.from)})`,
    )
      .all(runId, ...move.from)
      .map((item) => item.id);
    const resultIds = this.sql<string[], { id: string }>(
      `SELECT r.id FROM results r JOIN items i ON i.id = r.item_id WHERE r.run_id = ? AND i.status IN (${marks(move.from)})`,
    )
      .all(runId, ...move.from)
      .map((result) => result.id);
    this.deleteResults(resultIds);
    const requeue = this.sql(
      'UPDATE items SET status = ?, attempts = 0, starts = 0, started_lease = NULL, lease_owner = NULL, lease_token = NULL, updated_at = ? WHERE id = ?',
    );
    for (const id of retried) requeue.run(move.to, timestamp, id);
  }

  private deleteResults(resultIds: string[]): void {
    const deleteContents = this.sql('DELETE FROM contents WHERE result_id = ?');
    const deleteShot = this.sql('DELETE FROM screenshots WHERE result_id = ?');
    const deleteResult = this.sql('DELETE FROM results WHERE id = ?');
    for (const id of resultIds) {
      deleteContents.run(id);
      deleteShot.run(id);
      deleteResult.run(id);
    }
  }

  async deleteRun(owner: string, runId: string): Promise<boolean> {
    return this.db.transaction(() => {
      if (!this.ownedRunRow(owner, runId)) return false;
      this.sql('DELETE FROM contents WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)').run(
        runId,
      );
      this.sql('DELETE FROM screenshots WHERE run_id = ?').run(runId);
      this.sql('DELETE FROM results WHERE run_id = ?').run(runId);
      this.sql('DELETE FROM items WHERE run_id = ?').run(runId);
      this.sql('DELETE FROM url_aliases WHERE run_id = ?').run(runId);
      this.sql('DELETE FROM runs WHERE id = ?').run(runId);
      this.search.removeRun(runId);
      this.knownKeys.forget(runId);
      return true;
    })();
  }

  async claimItems(
    workerId: string,
    count: number,
    leaseMs: number,
    waiting?: WaitingOrigins,
  ): Promise<ClaimedItem[]> {
    return this.db.transaction(() => {
      const timestamp = now();
      const picked = this.pickQueued(count, waiting);
      if (picked.length === 0) return [];
      const rows = this.sql<(string | number)[], LeasedItemRow>(
        `UPDATE items SET status = ?, lease_owner = ?, lease_until = ?, attempts = attempts + 1,
             lease_token = lower(hex(randomblob(8))), updated_at = ?
           WHERE id IN (${marks(picked)}) AND status IN (${marks(ITEM_MOVES.claim.from)})
           RETURNING id, run_id, url, depth, parent_url, lease_token`,
      ).all(
        ITEM_MOVES.claim.to,
        workerId,
        Date.now() + leaseMs,
        timestamp,
        ...picked,
        ...ITEM_MOVES.claim.from,
      );
      const runs = new Map<string, RunRow>();
      for (const row of rows) {
        if (runs.has(row.run_id)) continue;
        // Every claimed run changes (its stats, maybe its status): a new version for ETags and long polls.
        const run = this.runRow(row.run_id)!;
        this.writeDecision(row.run_id, claimDecision(run.status as RunStatus), timestamp);
        runs.set(row.run_id, run);
      }
      return rows.map((row) => {
        const run = runs.get(row.run_id)!;
        return {
          itemId: row.id,
          runId: row.run_id,
          owner: run.owner,
          runType: run.type as RunType,
          params: this.paramsOf(run.params),
          url: row.url,
          depth: row.depth,
          parentUrl: row.parent_url,
          leaseToken: row.lease_token,
        };
      });
    })();
  }

  /** Parsed params by their stored JSON: a run's items share one object (see `readRunParams`). */
  private readonly parsedParams = new Map<string, Record<string, unknown>>();

  private paramsOf(text: string): Record<string, unknown> {
    let params = this.parsedParams.get(text);
    if (params === undefined) {
      params = Object.freeze(JSON.parse(text) as Record<string, unknown>);
      // Active runs are few; the cap only bounds a server that runs many.
      if (this.parsedParams.size >= 256) this.parsedParams.clear();
      this.parsedParams.set(text, params);
    }
    return params;
  }

  /** Where the next claim starts in the rotation of active runs. */
  private claimRotation = 0;

  /**
   * Up to `count` queued item ids, shared out between the owners of active
   * runs (those holding the fewest leased items first, else in turn), then
   * between each owner's runs in turn (oldest items first within a run): one
   * big crawl does not hold back the runs created after it, a key with many
   * runs does not hold back another key's one, and a key whose slow pages
   * hold the slots gets none of those that free while another key's work
   * waits (see `claimOrder`, which the PostgreSQL store's claim follows too).
   */
  private pickQueued(count: number, waiting?: WaitingOrigins): string[] {
    // Only active runs with queued items, in one statement: a claim comes after every finished item, and
    // asking each of a thousand running runs for queued items (none, mostly) took ~50 ms each time.
    const active = this.sql<string[], { id: string; owner: string }>(
      `SELECT id, owner FROM runs r WHERE status IN (${marks(ACTIVE_RUN_STATUSES)})
         AND EXISTS (SELECT 1 FROM items i WHERE i.run_id = r.id AND i.status = ?) ORDER BY seq`,
    ).all(...ACTIVE_RUN_STATUSES, WAITING_ITEM_STATUS);
    if (active.length === 0) return [];
    const order = claimOrder(active, count, this.claimRotation++, this.heldByOwner());
    const next = this.sql<[string, string, number], { id: string; url: string }>(
      'SELECT id, url FROM items WHERE run_id = ? AND status = ? ORDER BY seq LIMIT ?',
    );
    /** The run's first `limit` claimable items, passing over those at its waiting origins. */
    const claimable = (runId: string, limit: number): string[] => {
      const origins = waiting?.get(runId);
      if (!origins?.size) return next.all(runId, WAITING_ITEM_STATUS, limit).map((row) => row.id);
      const prefixes = originPrefixes(origins);
      return next
        .all(runId, WAITING_ITEM_STATUS, limit + CLAIM_LOOKAHEAD)
        .filter((row) => !prefixes.some((prefix) => row.url.startsWith(prefix)))
        .slice(0, limit)
        .map((row) => row.id);
    };
    const picked: string[] = [];
    const taken = new Map<string, number>();
    // A first pass gives each run its share; a second fills what runs with less work left open.
    for (const pass of ['share', 'fill'] as const) {
      for (const { id: runId, share } of order) {
        const room = count - picked.length;
        if (room <= 0) return picked;
        const already = taken.get(runId) ?? 0;
        const want = pass === 'share' ? share : count;
        const ids = claimable(runId, already + Math.min(want, room)).slice(already);
        picked.push(...ids);
        taken.set(runId, already + ids.length);
      }
    }
    return picked;
  }

  /** Items leased now (in a slot or a worker's reserve), by the owner of their run. */
  private heldByOwner(): Map<string, number> {
    const rows = this.sql<[string], { owner: string; held: number }>(
      `SELECT r.owner, count(*) AS held FROM items i JOIN runs r ON r.id = i.run_id
         WHERE i.status = ? GROUP BY r.owner`,
    ).all(LEASED_ITEM_STATUS);
    return new Map(rows.map((row) => [row.owner, row.held]));
  }

  async renewLease(item: ClaimedItem, leaseMs: number): Promise<boolean> {
    const info = this.sql(
      'UPDATE items SET lease_until = ? WHERE id = ? AND lease_token = ? AND status = ?',
    ).run(Date.now() + leaseMs, item.itemId, item.leaseToken, LEASED_ITEM_STATUS);
    return info.changes === 1;
  }

  async startItem(item: ClaimedItem): Promise<boolean> {
    // Once per lease: a start is what a lease that runs out is counted against.
    const info = this.sql(
      `UPDATE items SET starts = starts + (started_lease IS NOT lease_token), started_lease = lease_token
         WHERE id = ? AND lease_token = ? AND status = ?`,
    ).run(item.itemId, item.leaseToken, LEASED_ITEM_STATUS);
    return info.changes === 1;
  }

  async completeItem(item: ClaimedItem, outcome: ItemOutcome): Promise<boolean> {
    return (await this.completeItems([{ item, outcome }]))[0]!;
  }

  /**
   * Several outcomes in one transaction (group commit): one commit, one FTS
   * segment and one settlement per run for the lot. Each item is still
   * checked against its own lease: a lost one writes nothing, the others are
   * written. A large batch is written by the batch write thread (see
   * {@link OFF_THREAD_BATCH_CHARS}), in the same one transaction.
   */
  async completeItems(batch: readonly CompletedItem[]): Promise<boolean[]> {
    if (this.writeThread && !this.db.inTransaction && batchChars(batch) >= OFF_THREAD_BATCH_CHARS) {
      const { written, runs } = await this.writeThread.write(batch);
      this.learnCommitted(runs);
      return written;
    }
    return this.writeCompletedItems(batch).written;
  }

  /**
   * {@link completeItems}'s transaction on this connection (the batch write thread calls it on its
   * own): what it wrote, and what it changed of each run.
   */
  writeCompletedItems(batch: readonly CompletedItem[]): BatchWrite {
    const runs = new Map<string, RunRoom>();
    const written = this.db.transaction(() => {
      runs.clear(); // a transaction retried while the database was busy starts again
      const timestamp = now();
      const written = batch.map(({ item, outcome }) => this.writeOutcome(item, outcome, timestamp, runs));
      for (const [runId, room] of runs) room.settled = this.changed(runId, timestamp);
      return written;
    })();
    const committed = [...runs].map(([runId, room]) => ({ runId, keys: room.keys, settled: room.settled }));
    // Committed (unless inside a caller's transaction, which may still roll back).
    if (!this.db.inTransaction) this.learnCommitted(committed);
    return { written, runs: committed };
  }

  /** Keeps what committed rows hold (see `KnownUrlKeys`); a settled run finds no more links. */
  private learnCommitted(runs: readonly CommittedRun[]): void {
    for (const { runId, keys, settled } of runs) {
      if (settled) this.knownKeys.forget(runId);
      else this.knownKeys.add(runId, keys);
    }
  }

  /** One item's outcome, inside the caller's transaction; false (nothing written) when its lease is lost. */
  private writeOutcome(
    item: LeasedItem,
    outcome: ItemOutcome,
    timestamp: string,
    runs: Map<string, RunRoom>,
  ): boolean {
    const held = this.sql('SELECT 1 FROM items WHERE id = ? AND lease_token = ? AND status = ?').get(
      item.itemId,
      item.leaseToken,
      LEASED_ITEM_STATUS,
    );
    if (!held) return false;
    let room = runs.get(item.runId);
    if (!room) {
      room = { items: undefined, keys: [], settled: false };
      runs.set(item.runId, room);
    }
    this.sql(
      'UPDATE items SET status = ?, lease_owner = NULL, lease_token = NULL, updated_at = ? WHERE id = ?',
    ).run(outcome.status, timestamp, item.itemId);
    const previous = this.sql<[string], { id: string }>('SELECT id FROM results WHERE item_id = ?')
      .all(item.itemId)
      .map((row) => row.id);
    this.deleteResults(previous);
    const resultId = newId('res');
    const r = outcome.result;
    this.sql(
      `INSERT INTO results (id, run_id, item_id, url, final_url, status, title, depth, parent_url, http_status,
           content_type, data, has_screenshot, screenshot_error, error, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      resultId,
      item.runId,
      item.itemId,
      item.url,
      r.final_url,
      outcome.status,
      r.title,
      item.depth,
      item.parentUrl,
      r.http_status,
      r.content_type,
      r.data === null ? null : JSON.stringify(r.data),
      outcome.screenshot ? 1 : 0,
      r.screenshot_error && JSON.stringify(r.screenshot_error),
      r.error && JSON.stringify(r.error),
      timestamp,
    );
    const insertContent = this.sql('INSERT INTO contents (result_id, format, body) VALUES (?, ?, ?)');
    for (const [format, body] of Object.entries(outcome.contents)) {
      if (body !== undefined) insertContent.run(resultId, format, body);
    }
    if (outcome.screenshot) {
      this.sql('INSERT INTO screenshots (result_id, run_id, png) VALUES (?, ?, ?)').run(
        resultId,
        item.runId,
        outcome.screenshot,
      );
    }
    if (outcome.aliases?.length) this.addAliases(item.runId, outcome.aliases, room);
    if (outcome.discovered?.length)
      this.addItems(item.runId, outcome.discovered, outcome.itemLimit, timestamp, room);
    if (outcome.document) this.search.upsert(outcome.document);
    return true;
  }

  /**
   * Records other URLs a page turned out to be (redirect target, canonical) so
   * they are not fetched again; a queued item for one of them is dropped, its
   * content being already here.
   */
  private addAliases(runId: string, aliases: string[], counted: RunRoom): void {
    const addAlias = this.sql('INSERT OR IGNORE INTO url_aliases (run_id, url_key) VALUES (?, ?)');
    const dropQueued = this.sql('DELETE FROM items WHERE run_id = ? AND url_key = ? AND status = ?');
    for (const alias of aliases) {
      addAlias.run(runId, alias);
      counted.keys.push({ key: alias, depth: 0 });
      const { changes } = dropQueued.run(runId, alias, WAITING_ITEM_STATUS);
      if (counted.items !== undefined) counted.items -= changes;
    }
  }

  /**
   * Adds discovered URLs not seen in the run yet (as items or aliases), up to the run's item
   * limit, and moves a waiting item found again by a shorter path to that path: pages finish out
   * of order, so a link may first come from a deeper page, and its depth decides how far the crawl
   * goes on from it (`max_depth`).
   */
  private addItems(
    runId: string,
    urls: NonNullable<ItemOutcome['discovered']>,
    limit: number | undefined,
    timestamp: string,
    counted: RunRoom,
  ) {
    // The run's item count is read once a transaction and kept as items are added (aliases only drop items).
    counted.items ??= this.itemCount(runId);
    let room = limit === undefined ? Number.POSITIVE_INFINITY : limit - counted.items;
    const insert = this.sql(
      `INSERT OR IGNORE INTO items (id, run_id, url, url_key, depth, parent_url, status, updated_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?
       WHERE NOT EXISTS (SELECT 1 FROM url_aliases WHERE run_id = ? AND url_key = ?)`,
    );
    const shorten = this.sql(
      'UPDATE items SET depth = ?, parent_url = ? WHERE run_id = ? AND url_key = ? AND status = ? AND depth > ?',
    );
    for (const found of urls) {
      if (room <= 0) break;
      // Its item or alias is already there, no deeper: the statements would change nothing.
      if (this.knownKeys.has(runId, found.key, found.depth)) continue;
      const { changes } = insert.run(
        newId('itm'),
        runId,
        found.url,
        found.key,
        found.depth,
        found.parentUrl,
        NEW_ITEM_STATUS,
        timestamp,
        runId,
        found.key,
      );
      if (changes === 0) {
        shorten.run(found.depth, found.parentUrl, runId, found.key, WAITING_ITEM_STATUS, found.depth);
      }
      // Inserted, or there already (an alias, or an item now at this depth or less, or no longer waiting).
      counted.keys.push({ key: found.key, depth: found.depth });
      room -= changes;
      counted.items += changes;
    }
  }

  /** How many items a run has: its stats' total, read the same way (from the items themselves). */
  private itemCount(runId: string): number {
    return this.sql<[string], { n: number }>('SELECT count(*) AS n FROM items WHERE run_id = ?').get(runId)!
      .n;
  }

  async releaseItem(item: ClaimedItem): Promise<void> {
    this.db.transaction(() => {
      const move = ITEM_MOVES.requeue;
      const info = this.sql(
        // Handed back, not lost: neither its claim nor a start under this lease counts.
        `UPDATE items SET status = ?, lease_owner = NULL, lease_token = NULL, attempts = max(attempts - 1, 0),
             starts = starts - (started_lease IS lease_token), started_lease = NULL
           WHERE id = ? AND lease_token = ? AND status IN (${marks(move.from)})`,
      ).run(move.to, item.itemId, item.leaseToken, ...move.from);
      if (info.changes === 1) this.touch(item.runId);
    })();
  }

  async requeueInterrupted(options: {
    all: boolean;
    maxStarts?: number | undefined;
  }): Promise<InterruptedItems> {
    const move = ITEM_MOVES.requeue;
    const interrupted = `status IN (${marks(move.from)})${options.all ? '' : ' AND lease_until < ?'}`;
    const args = [...move.from, ...(options.all ? [] : [Date.now()])];
    // Pages whose work started as many times as allowed, each time by a process that never came back
    // from it: failed, as any outcome is written (their runs settle there); the others wait again.
    const exhausted = this.sql<(string | number)[], ExhaustedRow>(
      `SELECT id, run_id, url, depth, parent_url, lease_token, starts FROM items WHERE ${interrupted} AND starts >= ?`,
    ).all(...args, options.maxStarts ?? MAX_PAGE_STARTS);
    const written = exhausted.length === 0 ? [] : this.writeCompletedItems(crashedItems(exhausted)).written;
    this.sql(
      `UPDATE runs SET version = version + 1 WHERE id IN (SELECT DISTINCT run_id FROM items WHERE ${interrupted})`,
    ).run(...args);
    const info = this.sql(
      `UPDATE items SET status = ?, lease_owner = NULL, lease_token = NULL WHERE ${interrupted}`,
    ).run(move.to, ...args);
    return { requeued: info.changes, crashed: crashedPages(exhausted, written) };
  }

  private toResult(row: ResultRow): Result {
    return {
      id: row.id,
      run_id: row.run_id,
      url: row.url,
      final_url: row.final_url,
      status: row.status as ResultStatus,
      title: row.title,
      depth: row.depth,
      parent_url: row.parent_url,
      http_status: row.http_status,
      content_type: row.content_type,
      data: parseJson<Record<string, unknown>>(row.data),
      has_screenshot: row.has_screenshot === 1,
      screenshot_error: parseJson<PageErrorInfo>(row.screenshot_error),
      error: parseJson<PageErrorInfo>(row.error),
      created_at: row.created_at,
    };
  }

  async listResults(
    owner: string,
    runId: string,
    query: { status?: ResultStatus | undefined; limit: number; cursor?: string | undefined },
  ): Promise<Page<Result> | null> {
    if (!this.ownedRunRow(owner, runId)) return null;
    const where = ['run_id = ?'];
    const args: (string | number)[] = [runId];
    if (query.status) {
      where.push('status = ?');
      args.push(query.status);
    }
    if (query.cursor) {
      where.push('seq > ?');
      args.push(decodeCursor(resultsCursorTag(runId), query.cursor));
    }
    const rows = this.sql<(string | number)[], ResultRow>(
      `SELECT * FROM results WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ?`,
    ).all(...args, query.limit + 1);
    const more = rows.length > query.limit;
    const pageRows = rows.slice(0, query.limit);
    return {
      data: pageRows.map((row) => this.toResult(row)),
      next_cursor: more ? encodeCursor(resultsCursorTag(runId), pageRows.at(-1)!.seq) : null,
    };
  }

  async getResult(owner: string, runId: string, resultId: string): Promise<Result | null> {
    if (!this.ownedRunRow(owner, runId)) return null;
    const row = this.sql<[string, string], ResultRow>(
      'SELECT * FROM results WHERE id = ? AND run_id = ?',
    ).get(resultId, runId);
    return row ? this.toResult(row) : null;
  }

  async getContent(resultId: string, format: ResultContentFormat): Promise<string | null> {
    const row = this.sql<[string, string], { body: string }>(
      'SELECT body FROM contents WHERE result_id = ? AND format = ?',
    ).get(resultId, format);
    return row?.body ?? null;
  }

  async getScreenshot(runId: string, resultId: string): Promise<Buffer | null> {
    const row = this.sql<[string, string], { png: Buffer }>(
      'SELECT png FROM screenshots WHERE result_id = ? AND run_id = ?',
    ).get(resultId, runId);
    return row?.png ?? null;
  }

  async hasCollection(owner: string, collection: string): Promise<boolean> {
    return (
      this.sql('SELECT 1 FROM search_documents WHERE owner = ? AND collection = ? LIMIT 1').get(
        owner,
        collection,
      ) !== undefined
    );
  }

  async getDocument(owner: string, collection: string, documentId: string): Promise<StoredDocument | null> {
    const row = this.sql<
      [string, string, string],
      { id: string; url: string; title: string | null; body: string; indexed_at: string }
    >(
      'SELECT id, url, title, body, indexed_at FROM search_documents WHERE id = ? AND owner = ? AND collection = ?',
    ).get(documentId, owner, collection);
    if (!row) return null;
    // The document's URL is the page's final URL, as its result records it. A result and its
    // indexing are written in one transaction, one writer at a time: the last result is the one
    // whose text the document holds.
    const result = this.sql<[string, string], { id: string }>(
      `SELECT r.id FROM search_document_runs dr JOIN results r ON r.run_id = dr.run_id
       WHERE dr.document_id = ? AND r.final_url = ? AND r.status = 'succeeded'
       ORDER BY r.seq DESC LIMIT 1`,
    ).get(row.id, row.url);
    return {
      id: row.id,
      collection,
      url: row.url,
      title: row.title,
      text: row.body,
      indexedAt: row.indexed_at,
      resultId: result?.id ?? null,
    };
  }

  async createApiKey(record: ApiKeyRecord): Promise<void> {
    this.sql(
      'INSERT INTO api_keys (id, owner, name, secret_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(record.id, record.owner, record.name, record.secretHash, record.createdAt, record.revokedAt);
  }

  private static toKey(row: {
    id: string;
    owner: string;
    name: string;
    secret_hash: string;
    created_at: string;
    revoked_at: string | null;
  }): ApiKeyRecord {
    return {
      id: row.id,
      owner: row.owner,
      name: row.name,
      secretHash: row.secret_hash,
      createdAt: row.created_at,
      revokedAt: row.revoked_at,
    };
  }

  async findApiKey(id: string): Promise<ApiKeyRecord | null> {
    const row = this.sql<[string], Parameters<typeof SqliteStore.toKey>[0]>(
      'SELECT * FROM api_keys WHERE id = ?',
    ).get(id);
    return row ? SqliteStore.toKey(row) : null;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return this.sql<[], Parameters<typeof SqliteStore.toKey>[0]>('SELECT * FROM api_keys ORDER BY created_at')
      .all()
      .map(SqliteStore.toKey);
  }

  async revokeApiKey(id: string): Promise<boolean> {
    return (
      this.sql('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now(), id)
        .changes === 1
    );
  }

  async close(): Promise<void> {
    this.search.close();
    await this.writeThread?.close();
    if (this.db.open) this.db.close();
  }
}

/** One `?` per value, for an `IN (…)` list. */
function marks(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}
