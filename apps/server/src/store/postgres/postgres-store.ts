import type {
  PageErrorInfo,
  Result,
  ResultContentFormat,
  ResultStatus,
  Run,
  RunErrorInfo,
  RunStats,
  RunType,
} from '@webdata/contract';
import { LIMITS, RunStatus } from '@webdata/contract';
import type pg from 'pg';
import {
  ACTIVE_RUN_STATUSES,
  CANCELLABLE,
  cancelDecision,
  claimDecision,
  ITEM_MOVES,
  LEASED_ITEM_STATUS,
  NEW_ITEM_STATUS,
  NEW_RUN_STATUS,
  type RunDecision,
  retryDecision,
  settle,
  WAITING_ITEM_STATUS,
} from '../../engine/run-state.js';
import { newId } from '../../ids.js';
import type { BlobStore } from '../blobs/blob-store.js';
import { CLAIM_LOOKAHEAD, claimOrder, originPrefixes, type WaitingOrigins } from '../claim-order.js';
import { crashedItems, crashedPages, type ExhaustedRow, MAX_PAGE_STARTS } from '../crashed-outcome.js';
import { decodeCursor, encodeCursor, resultsCursorTag } from '../cursor.js';
import { type KnownUrlKey, KnownUrlKeys } from '../known-url-keys.js';
import type { LeasedItemRow } from '../leased-item-row.js';
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
  type RunChange,
  type RunChanges,
  type RunChangesQuery,
  type RunListQuery,
  type Store,
  type StoredDocument,
  type StoredRun,
} from '../store.js';
import {
  type AtCommit,
  createPostgresPool,
  isCommitOutcomeUnknown,
  mapPostgresError,
  query,
  transaction,
} from './connection.js';
import { migratePostgres } from './migrate.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';
import { PostgresSearchIndex } from './postgres-search-index.js';
import { RUN_CHANGES_CHANNEL, RunChangeListener } from './run-change-listener.js';

type Client = pg.Pool | pg.PoolClient;

interface RunRow {
  seq: string;
  id: string;
  owner: string;
  type: RunType;
  status: RunStatus;
  urls: string[];
  params: Record<string, unknown>;
  error: RunErrorInfo | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  version: string;
  /** Item counts by status (`SELECT_RUN` adds them). */
  stats: Partial<Record<keyof RunStats, number>> | null;
}

interface ResultRow {
  seq: string;
  id: string;
  run_id: string;
  url: string;
  final_url: string | null;
  status: ResultStatus;
  title: string | null;
  depth: number;
  parent_url: string | null;
  http_status: number | null;
  content_type: string | null;
  data: Record<string, unknown> | null;
  has_screenshot: boolean;
  screenshot_error: PageErrorInfo | null;
  error: PageErrorInfo | null;
  formats: string[];
  created_at: Date;
}

/** A run row with its item counts by status, in one statement (no N+1 for lists). */
const SELECT_RUN = `
  SELECT r.*, (
    SELECT json_object_agg(status, n) FROM (
      SELECT status, count(*)::int AS n FROM items WHERE run_id = r.id GROUP BY status
    ) counts
  ) AS stats
  FROM runs r`;

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/** Where a result's blobs live: under its run, so deleting a run is one prefix. */
const resultPrefix = (runId: string, resultId: string) => `runs/${runId}/${resultId}/`;
const SCREENSHOT = 'screenshot.png';

/** How often at most one process announces progress (not transitions) of one run. */
const PROGRESS_TICK_MS = 200;

/** Settings of {@link PostgresStore}. */
export interface PostgresStoreOptions {
  url: string;
  blobs: BlobStore;
  poolSize?: number;
  onError?: (error: Error) => void;
}

/**
 * The store for scale-out: any number of API and worker processes share one
 * PostgreSQL database and one blob store.
 *
 * - Work distribution is PostgreSQL's own: items are claimed with
 *   `FOR UPDATE SKIP LOCKED` in a short transaction, each claim with a lease
 *   token and expiry (the database's clock); workers heartbeat; expired
 *   leases go back to the queue; a result is written only in the transaction
 *   that holds the item's lease, so a worker that lost it writes nothing.
 * - Runs' changes are announced with `pg_notify` on commit (transitions
 *   always, progress at most every {@link PROGRESS_TICK_MS} per process); each
 *   process LISTENs on one connection.
 * - Locks are taken in one order everywhere (items, then their run), so
 *   claims, completions, cancels and deletes do not deadlock.
 * - The state machine is the engine's (`engine/run-state.ts`): this class
 *   persists its decisions and holds no rule.
 */
export class PostgresStore implements Store {
  readonly shared = true;
  readonly description: string;
  readonly search: PostgresSearchIndex;
  private readonly pool: pg.Pool;
  /** The schema migration, once it succeeded or while it runs; null after a failure, so the next call tries again. */
  private migrated: Promise<void> | null = null;
  private readonly lastTick = new Map<string, number>();
  /** Discovered links' keys each run already holds: their inserts are skipped. */
  private readonly knownKeys = new KnownUrlKeys();
  /** Where this process's next claim starts in the rotation of active runs. */
  private claimRotation = 0;

  constructor(private readonly options: PostgresStoreOptions) {
    const url = new URL(options.url);
    this.description = `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}; blobs: ${options.blobs.description}`;
    this.pool = createPostgresPool(options.url, {
      max: options.poolSize ?? 10,
      onIdleError: (error) => options.onError?.(error),
    });
    this.search = new PostgresSearchIndex(this.pool);
  }

  /**
   * Resolves once the schema is up to date; every method waits for it. A
   * process started while the database is away answers 503 until it is back,
   * then migrates and carries on.
   */
  open(): Promise<void> {
    this.migrated ??= migratePostgres(this.pool, POSTGRES_MIGRATIONS).then(
      () => undefined,
      (error: unknown) => {
        this.migrated = null;
        throw error;
      },
    );
    return this.migrated;
  }

  private async q<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    await this.open();
    return (await query<R>(this.pool, text, values)).rows;
  }

  private async tx<T>(work: (client: pg.PoolClient, atCommit: AtCommit) => Promise<T>): Promise<T> {
    await this.open();
    return transaction(this.pool, work);
  }

  private toStored(row: RunRow): StoredRun {
    const stats: RunStats = { total: 0, queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
    for (const [status, n] of Object.entries(row.stats ?? {})) {
      if (status in stats) stats[status as keyof RunStats] = n;
      stats.total += n;
    }
    const run: Run = {
      id: row.id,
      status: row.status,
      type: row.type,
      urls: row.urls,
      created_at: iso(row.created_at)!,
      updated_at: iso(row.updated_at)!,
      started_at: iso(row.started_at),
      finished_at: iso(row.finished_at),
      params: row.params,
      stats,
      error: row.error,
    };
    return { run, owner: row.owner, version: Number(row.version) };
  }

  private async readRun(client: Client, runId: string): Promise<StoredRun | null> {
    const { rows } = await client.query<RunRow>(`${SELECT_RUN} WHERE r.id = $1`, [runId]);
    return rows[0] ? this.toStored(rows[0]) : null;
  }

  /** Whether a change of `runId` is announced: a transition always, progress at most every tick per process. */
  private announces(runId: string, transition: boolean): boolean {
    const now = Date.now();
    if (!transition && now - (this.lastTick.get(runId) ?? 0) < PROGRESS_TICK_MS) return false;
    this.lastTick.set(runId, now);
    if (this.lastTick.size > 10_000) this.lastTick.clear();
    return true;
  }

  /**
   * Bumps runs' versions (setting `set` too) with the transaction's commit,
   * in the same message: bumping a version takes the store-wide change
   * counter, which is then held for the server's time only. The runs whose
   * change is announced get their NOTIFY in that statement.
   */
  private bumpAtCommit(
    client: pg.PoolClient,
    atCommit: AtCommit,
    runIds: string[],
    options: { set?: string; transition?: (runId: string) => boolean } = {},
  ): void {
    if (runIds.length === 0) return;
    const list = (ids: string[]) => ids.map((id) => client.escapeLiteral(id)).join(', ');
    const announced = runIds.filter((id) => this.announces(id, options.transition?.(id) ?? false));
    const set = options.set ? `${options.set}, ` : '';
    const update = `UPDATE runs SET ${set}version = version + 1, updated_at = now() WHERE id IN (${list(runIds)})
      RETURNING id, version, status`;
    atCommit.add(
      announced.length === 0
        ? update
        : `WITH bumped AS (${update})
           SELECT pg_notify(${client.escapeLiteral(RUN_CHANGES_CHANNEL)},
             json_build_object('id', id, 'version', version, 'status', status)::text)
           FROM bumped WHERE id IN (${list(announced)})`,
    );
  }

  /** Announces a change that takes no version (a deletion) on commit. */
  private async announce(client: pg.PoolClient, change: RunChange): Promise<void> {
    await client.query('SELECT pg_notify($1, $2)', [RUN_CHANGES_CHANNEL, JSON.stringify(change)]);
  }

  async createRun(input: NewRun): Promise<{ run: StoredRun; created: boolean }> {
    return this.tx(async (client, atCommit) => {
      if (input.idempotencyKey !== undefined) {
        // Two requests with one key at once: the second waits here, then finds the first's run.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          JSON.stringify([input.owner, input.idempotencyKey]),
        ]);
        const { rows } = await client.query<RunRow>(
          `${SELECT_RUN} WHERE r.owner = $1 AND r.idempotency_key = $2`,
          [input.owner, input.idempotencyKey],
        );
        const existing = rows[0];
        if (existing) {
          if (Date.now() - existing.created_at.getTime() < LIMITS.idempotencyTtlSeconds * 1000) {
            return { run: this.toStored(existing), created: false };
          }
          await client.query('UPDATE runs SET idempotency_key = NULL WHERE id = $1', [existing.id]);
        }
      }
      await this.checkActiveRuns(client, input.owner, input.maxActiveRuns);
      const runId = newId('run');
      const now = new Date();
      await client.query(
        `INSERT INTO runs (id, owner, type, status, urls, params, created_at, updated_at, idempotency_key)
         VALUES ($1, $2, $3, $8, $4, $5, $6, $6, $7)`,
        [
          runId,
          input.owner,
          input.type,
          JSON.stringify(input.urls),
          JSON.stringify(input.params),
          now,
          input.idempotencyKey ?? null,
          NEW_RUN_STATUS,
        ],
      );
      await client.query(
        `INSERT INTO items (id, run_id, url, url_key, depth, status, updated_at)
         SELECT id, $1, url, key, depth, $7, $2
         FROM unnest($3::text[], $4::text[], $5::text[], $6::int[]) WITH ORDINALITY AS t(id, url, key, depth, ord)
         ORDER BY ord
         ON CONFLICT (run_id, url_key) DO NOTHING`,
        [
          runId,
          now,
          input.items.map(() => newId('itm')),
          input.items.map((item) => item.url),
          input.items.map((item) => item.key),
          input.items.map((item) => item.depth),
          NEW_ITEM_STATUS,
        ],
      );
      const created = (await this.readRun(client, runId))!;
      // Its change number with the commit; workers in other processes learn of new work without waiting for their idle poll.
      atCommit.add(
        `WITH bumped AS (UPDATE runs SET version = version WHERE id = ${client.escapeLiteral(runId)} RETURNING id, version, status)
         SELECT pg_notify(${client.escapeLiteral(RUN_CHANGES_CHANNEL)},
           json_build_object('id', id, 'version', version, 'status', status)::text) FROM bumped`,
      );
      return { run: created, created: true };
    });
  }

  async getRun(owner: string, runId: string): Promise<StoredRun | null> {
    const rows = await this.q<RunRow>(`${SELECT_RUN} WHERE r.id = $1 AND r.owner = $2`, [runId, owner]);
    return rows[0] ? this.toStored(rows[0]) : null;
  }

  async getRunHead(runId: string): Promise<{ owner: string; version: number } | null> {
    const rows = await this.q<{ owner: string; version: string }>(
      'SELECT owner, version FROM runs WHERE id = $1',
      [runId],
    );
    return rows[0] ? { owner: rows[0].owner, version: Number(rows[0].version) } : null;
  }

  async listRuns(listQuery: RunListQuery): Promise<Page<Run>> {
    const where = ['r.owner = $1'];
    const args: unknown[] = [listQuery.owner];
    const add = (sql: string, value: unknown) => {
      args.push(value);
      where.push(sql.replace('?', `$${args.length}`));
    };
    if (listQuery.status) add('r.status = ?', listQuery.status);
    if (listQuery.type) add('r.type = ?', listQuery.type);
    if (listQuery.ids) add('r.id = ANY(?)', listQuery.ids);
    if (listQuery.cursor) add('r.seq < ?', decodeCursor('runs', listQuery.cursor));
    args.push(listQuery.limit + 1);
    const rows = await this.q<RunRow>(
      `${SELECT_RUN} WHERE ${where.join(' AND ')} ORDER BY r.seq DESC LIMIT $${args.length}`,
      args,
    );
    const more = rows.length > listQuery.limit;
    const pageRows = rows.slice(0, listQuery.limit);
    return {
      data: pageRows.map((row) => this.toStored(row).run),
      next_cursor: more ? encodeCursor('runs', Number(pageRows.at(-1)!.seq)) : null,
    };
  }

  async changeCursor(): Promise<number> {
    const rows = await this.q<{ last: string }>('SELECT last FROM run_change_counter WHERE id = 1');
    return Number(rows[0]!.last);
  }

  async listRunChanges(changes: RunChangesQuery): Promise<RunChanges> {
    const args: unknown[] = [changes.owner, changes.since, changes.limit];
    const idFilter = changes.ids ? ' AND r.id = ANY($4)' : '';
    if (changes.ids) args.push(changes.ids);
    const rows = await this.q<RunRow & { change_seq: string }>(
      `${SELECT_RUN} WHERE r.owner = $1 AND r.change_seq > $2${idFilter} ORDER BY r.change_seq LIMIT $3`,
      args,
    );
    if (!changes.ids) {
      // Key-wide: runs deleted since, from their tombstones, in the same order of changes.
      const deletions = await this.q<{ run_id: string; change_seq: string }>(
        'SELECT run_id, change_seq FROM run_deletions WHERE owner = $1 AND change_seq > $2 ORDER BY change_seq LIMIT $3',
        [changes.owner, changes.since, changes.limit],
      );
      return mergeChanges(
        rows.map((row) => ({ seq: Number(row.change_seq), run: this.toStored(row).run })),
        deletions.map((row) => ({ seq: Number(row.change_seq), deleted: row.run_id })),
        changes,
      );
    }
    let missing: string[] = [];
    if (changes.ids) {
      const present = await this.q<{ id: string }>('SELECT id FROM runs WHERE owner = $1 AND id = ANY($2)', [
        changes.owner,
        changes.ids,
      ]);
      const found = new Set(present.map((row) => row.id));
      missing = changes.ids.filter((id) => !found.has(id));
    }
    return {
      runs: rows.map((row) => this.toStored(row).run),
      cursor: rows.length > 0 ? Number(rows.at(-1)!.change_seq) : changes.since,
      missing,
    };
  }

  /** Locks runs in one order (by id) before their versions are bumped (with the commit, which takes the change counter). */
  private async lockRuns(client: pg.PoolClient, runIds: string[]): Promise<void> {
    await client.query('SELECT 1 FROM runs WHERE id = ANY($1) ORDER BY id FOR UPDATE', [runIds]);
  }

  async cancelRun(owner: string, runId: string): Promise<StoredRun | null> {
    return this.tx(async (client, atCommit) => {
      const head = await client.query<{ status: RunStatus }>(
        'SELECT status FROM runs WHERE id = $1 AND owner = $2',
        [runId, owner],
      );
      const decision = head.rows[0] && cancelDecision(head.rows[0].status);
      if (!decision?.items) return null;
      // Items first (the lock order of claims and completions): a worker's late write then finds no lease.
      await client.query(
        `UPDATE items SET status = $2, lease_owner = NULL, lease_token = NULL, updated_at = now()
         WHERE run_id = $1 AND status = ANY($3)`,
        [runId, decision.items.to, [...decision.items.from]],
      );
      // Still cancellable: a concurrent change of the run (read without a lock) wins.
      if (!(await this.writeDecision(client, runId, decision, CANCELLABLE))) return null;
      return this.bumpedAtCommit(client, atCommit, runId);
    });
  }

  /**
   * Bumps the run's version with the commit, as a transition, and returns the
   * run as it will be then (this transaction holds its row, so its next version is known).
   */
  private async bumpedAtCommit(client: pg.PoolClient, atCommit: AtCommit, runId: string): Promise<StoredRun> {
    this.bumpAtCommit(client, atCommit, [runId], { transition: () => true });
    const run = (await this.readRun(client, runId))!;
    return { ...run, version: run.version + 1 };
  }

  /**
   * Throws {@link ActiveRunLimitError} when the owner has `limit` runs queued or running. The
   * owner's lock (held to the end of the transaction) makes its creations and retries take turns,
   * so two at once cannot both see room for one.
   */
  private async checkActiveRuns(
    client: pg.PoolClient,
    owner: string,
    limit: number | undefined,
  ): Promise<void> {
    if (limit === undefined) return;
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`active-runs:${owner}`]);
    const { rows } = await client.query<{ active: number }>(
      `SELECT count(*)::int AS active FROM runs WHERE status IN (${literals(ACTIVE_RUN_STATUSES)}) AND owner = $1`,
      [owner],
    );
    if (rows[0]!.active >= limit) throw new ActiveRunLimitError(limit);
  }

  async retryRun(owner: string, runId: string, maxActiveRuns?: number): Promise<StoredRun | null> {
    const replaced: string[] = [];
    const retried = await this.tx(async (client, atCommit) => {
      replaced.length = 0;
      const head = await client.query<{ status: RunStatus }>(
        'SELECT status FROM runs WHERE id = $1 AND owner = $2 FOR UPDATE',
        [runId, owner],
      );
      if (!head.rows[0]) return null;
      const run = (await this.readRun(client, runId))!;
      const decision = retryDecision(head.rows[0].status, run.run.stats);
      if (!decision) return null;
      await this.checkActiveRuns(client, owner, maxActiveRuns);
      if (decision.items) {
        const results = await client.query<{ id: string }>(
          `DELETE FROM results r USING items i
           WHERE r.item_id = i.id AND r.run_id = $1 AND i.status = ANY($2) RETURNING r.id`,
          [runId, [...decision.items.from]],
        );
        replaced.push(...results.rows.map((row) => row.id));
        await client.query(
          `UPDATE items SET status = $3, attempts = 0, starts = 0, started_lease = NULL, lease_owner = NULL,
             lease_token = NULL, updated_at = now()
           WHERE run_id = $1 AND status = ANY($2)`,
          [runId, [...decision.items.from], decision.items.to],
        );
      }
      await this.writeDecision(client, runId, decision);
      return this.bumpedAtCommit(client, atCommit, runId);
    });
    await this.deleteBlobs(runId, replaced);
    return retried;
  }

  private async deleteBlobs(runId: string, resultIds: string[]): Promise<void> {
    for (const id of resultIds) {
      await this.options.blobs
        .deletePrefix(resultPrefix(runId, id))
        .catch((error) => this.options.onError?.(error));
    }
  }

  async deleteRun(owner: string, runId: string): Promise<boolean> {
    const deleted = await this.tx(async (client) => {
      const head = await client.query('SELECT 1 FROM runs WHERE id = $1 AND owner = $2', [runId, owner]);
      if (!head.rowCount) return false;
      await client.query('DELETE FROM items WHERE run_id = $1', [runId]);
      await client.query('DELETE FROM results WHERE run_id = $1', [runId]);
      await client.query('DELETE FROM url_aliases WHERE run_id = $1', [runId]);
      await this.search.removeRunIn(client, runId);
      await client.query('DELETE FROM runs WHERE id = $1', [runId]);
      await this.announce(client, { id: runId, version: 0, status: 'deleted' });
      return true;
    });
    this.knownKeys.forget(runId);
    if (deleted) {
      await this.options.blobs.deletePrefix(`runs/${runId}/`).catch((error) => this.options.onError?.(error));
    }
    return deleted;
  }

  async claimItems(
    workerId: string,
    count: number,
    leaseMs: number,
    waiting?: WaitingOrigins,
  ): Promise<ClaimedItem[]> {
    if (count <= 0) return [];
    return this.tx(async (client, atCommit) => {
      const { rows: queued } = await client.query<{ id: string; owner: string }>(
        `SELECT id, owner FROM runs r WHERE status IN (${literals(ACTIVE_RUN_STATUSES)})
           AND EXISTS (SELECT 1 FROM items i WHERE i.run_id = r.id AND i.status = ${literals([WAITING_ITEM_STATUS])})
           ORDER BY seq`,
      );
      const active = queued;
      if (active.length === 0) return [];
      // Items leased now by owner, every process's: the owners holding the fewest come first.
      const { rows: heldRows } = await client.query<{ owner: string; held: number }>(
        `SELECT r.owner, count(*)::int AS held FROM items i JOIN runs r ON r.id = i.run_id
           WHERE i.status = ${literals([LEASED_ITEM_STATUS])} GROUP BY r.owner`,
      );
      const held = new Map(heldRows.map((row) => [row.owner, row.held]));
      // Owners holding the fewest leased items first, else in turns, then each owner's runs (claimOrder,
      // as the SQLite store claims), starting from this process's next turn: a big crawl, a key with many
      // runs, or a key whose slow pages hold the slots, cannot take every freed slot. A first pass gives
      // each run its share; a second fills what runs with less work left open.
      const order = claimOrder(active, count, this.claimRotation++, held);
      const ids = order.map((turn) => turn.id);
      // Each run's queued items at its waiting origins are passed over, looking CLAIM_LOOKAHEAD further.
      const passedRuns: string[] = [];
      const passedPrefixes: string[] = [];
      for (const [runId, origins] of waiting ?? []) {
        for (const prefix of originPrefixes(origins)) {
          passedRuns.push(runId);
          passedPrefixes.push(prefix);
        }
      }
      const lookahead = order.map((turn) => (waiting?.get(turn.id)?.size ? CLAIM_LOOKAHEAD : 0));
      const claimed: ClaimedRow[] = [];
      for (const pass of ['share', 'fill'] as const) {
        const room = count - claimed.length;
        if (room <= 0) break;
        const shares = order.map((turn) => (pass === 'share' ? turn.share : count));
        const { rows } = await client.query<ClaimedRow>(CLAIM_SQL, [
          ids,
          room,
          workerId,
          leaseMs,
          shares,
          lookahead,
          passedRuns,
          passedPrefixes,
        ]);
        claimed.push(...rows);
      }
      if (claimed.length === 0) return [];
      claimed.sort((a, b) => Number(a.seq) - Number(b.seq));
      const runIds = [...new Set(claimed.map((row) => row.run_id))];
      const { rows: runRows } = await client.query<{
        id: string;
        owner: string;
        type: RunType;
        params: Record<string, unknown>;
        status: RunStatus;
      }>('SELECT id, owner, type, params, status FROM runs WHERE id = ANY($1) ORDER BY id FOR UPDATE', [
        runIds,
      ]);
      const byId = new Map(runRows.map((run) => [run.id, run]));
      this.bumpAtCommit(client, atCommit, runIds, {
        set: CLAIMED_RUN_SET,
        transition: (runId) => {
          const status = byId.get(runId)?.status;
          return status !== undefined && claimDecision(status).status !== status;
        },
      });
      return claimed.map((row) => {
        const run = byId.get(row.run_id)!;
        return {
          itemId: row.id,
          runId: row.run_id,
          owner: run.owner,
          runType: run.type,
          params: run.params,
          url: row.url,
          depth: row.depth,
          parentUrl: row.parent_url,
          leaseToken: row.lease_token,
        };
      });
    });
  }

  async renewLease(item: ClaimedItem, leaseMs: number): Promise<boolean> {
    const rows = await this.q(
      `UPDATE items SET lease_until = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND lease_token = $2 AND status = $4 RETURNING 1`,
      [item.itemId, item.leaseToken, leaseMs, LEASED_ITEM_STATUS],
    );
    return rows.length === 1;
  }

  async startItem(item: ClaimedItem): Promise<boolean> {
    // Once per lease: a start is what a lease that runs out is counted against.
    const rows = await this.q(
      `UPDATE items SET starts = starts + CASE WHEN started_lease IS DISTINCT FROM lease_token THEN 1 ELSE 0 END,
         started_lease = lease_token
       WHERE id = $1 AND lease_token = $2 AND status = $3 RETURNING 1`,
      [item.itemId, item.leaseToken, LEASED_ITEM_STATUS],
    );
    return rows.length === 1;
  }

  async completeItem(item: ClaimedItem, outcome: ItemOutcome): Promise<boolean> {
    return (await this.completeItems([{ item, outcome }]))[0]!;
  }

  /**
   * Several outcomes in one transaction (group commit), each checked against
   * its own lease. Run rows are locked in the order of their ids, so two
   * processes' batches never wait on each other in a cycle (a deadlock on
   * other rows is rolled back and run again by `transaction`).
   */
  async completeItems(batch: readonly CompletedItem[]): Promise<boolean[]> {
    // Blobs first, under new result ids: the transaction below then only records them.
    const writes = batch.map(({ item, outcome }) => ({
      item,
      outcome,
      resultId: newId('res'),
      formats: Object.entries(outcome.contents).filter(([, body]) => body !== undefined) as [
        string,
        string,
      ][],
      replaced: [] as string[],
      /** URL keys the run's rows hold once the transaction commits (see `KnownUrlKeys`). */
      keys: [] as KnownUrlKey[],
      written: false,
    }));
    await Promise.all(
      writes.flatMap(({ item, outcome, resultId, formats }) => {
        const prefix = resultPrefix(item.runId, resultId);
        return [
          ...formats.map(([format, body]) => this.options.blobs.put(`${prefix}${format}`, body)),
          ...(outcome.screenshot
            ? [this.options.blobs.put(`${prefix}${SCREENSHOT}`, outcome.screenshot)]
            : []),
        ];
      }),
    );
    const order = [...writes].sort((a, b) =>
      a.item.runId < b.item.runId ? -1 : a.item.runId > b.item.runId ? 1 : 0,
    );
    let committed = false;
    const settled = new Set<string>();
    /** The write may have committed though no answer came back: its blobs stay (an orphan at worst, removed with the run). */
    let maybeWritten = false;
    try {
      await this.tx(async (client, atCommit) => {
        for (const write of writes) {
          write.replaced.length = 0;
          write.keys.length = 0;
          write.written = false;
        }
        const runIds: string[] = [];
        for (const write of order) {
          write.written = await this.writeOutcome(client, write);
          if (write.written && runIds.at(-1) !== write.item.runId) runIds.push(write.item.runId);
        }
        settled.clear();
        for (const runId of runIds) if (await this.settleRun(client, runId)) settled.add(runId);
        this.bumpAtCommit(client, atCommit, runIds, { transition: (runId) => settled.has(runId) });
      });
      committed = true;
      // A settled run finds no more links.
      for (const write of writes) {
        if (settled.has(write.item.runId)) this.knownKeys.forget(write.item.runId);
        else this.knownKeys.add(write.item.runId, write.keys);
      }
    } catch (error) {
      maybeWritten = isCommitOutcomeUnknown(error);
      throw error;
    } finally {
      // A refused or failed write leaves no blob behind; a replaced result's blobs go too.
      if (!maybeWritten) {
        for (const write of writes) {
          const gone = committed && write.written ? write.replaced : [write.resultId];
          await this.deleteBlobs(write.item.runId, gone);
        }
      }
    }
    return writes.map((write) => write.written);
  }

  /** One item's outcome, inside the caller's transaction; false (nothing written) when its lease is lost. */
  private async writeOutcome(
    client: pg.PoolClient,
    write: {
      item: LeasedItem;
      outcome: ItemOutcome;
      resultId: string;
      formats: [string, string][];
      replaced: string[];
      keys: KnownUrlKey[];
    },
  ): Promise<boolean> {
    const { item, outcome, resultId, formats } = write;
    // The lease is checked in the transaction that writes: a worker that lost it writes nothing.
    const held = await client.query(
      'SELECT 1 FROM items WHERE id = $1 AND lease_token = $2 AND status = $3 FOR UPDATE',
      [item.itemId, item.leaseToken, LEASED_ITEM_STATUS],
    );
    if (!held.rowCount) return false;
    // The run's row is held until commit: its settlement and its item limit see every other page's writes.
    const run = await client.query('SELECT 1 FROM runs WHERE id = $1 FOR UPDATE', [item.runId]);
    if (!run.rows[0]) return false;
    await client.query(
      'UPDATE items SET status = $2, lease_owner = NULL, lease_token = NULL, updated_at = now() WHERE id = $1',
      [item.itemId, outcome.status],
    );
    const previous = await client.query<{ id: string }>(
      'DELETE FROM results WHERE item_id = $1 RETURNING id',
      [item.itemId],
    );
    write.replaced.push(...previous.rows.map((row) => row.id));
    const r = outcome.result;
    await client.query(
      `INSERT INTO results (id, run_id, item_id, url, final_url, status, title, depth, parent_url, http_status,
         content_type, data, has_screenshot, screenshot_error, error, formats, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, now())`,
      [
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
        outcome.screenshot !== undefined,
        r.screenshot_error && JSON.stringify(r.screenshot_error),
        r.error && JSON.stringify(r.error),
        formats.map(([format]) => format),
      ],
    );
    if (outcome.aliases?.length) {
      await this.addAliases(client, item.runId, outcome.aliases);
      write.keys.push(...outcome.aliases.map((key) => ({ key, depth: 0 })));
    }
    if (outcome.discovered?.length) {
      await this.addItems(client, item.runId, outcome.discovered, outcome.itemLimit, write.keys);
    }
    if (outcome.document) await this.search.upsertIn(client, outcome.document);
    return true;
  }

  /** Persists the engine's settlement of a run whose items may all be done; true when it settled. */
  private async settleRun(client: pg.PoolClient, runId: string): Promise<boolean> {
    const run = await this.readRun(client, runId);
    if (!run) return false;
    const settled = settle(run.run.status, run.run.stats);
    if (!settled) return false;
    await this.writeDecision(client, runId, settled);
    return true;
  }

  /**
   * Writes a change of a run that the engine's state machine decided (the
   * caller moves its items and bumps the version with the commit). With
   * `from`, only while the run is in one of those states; true when written.
   */
  private async writeDecision(
    client: pg.PoolClient,
    runId: string,
    decision: RunDecision,
    from?: readonly RunStatus[],
  ): Promise<boolean> {
    const args: unknown[] = [runId, decision.status];
    const sets = ['status = $2', 'updated_at = now()'];
    if (decision.error !== undefined) {
      args.push(decision.error && JSON.stringify(decision.error));
      sets.push(`error = $${args.length}`);
    }
    if (decision.finished === 'now') sets.push('finished_at = now()');
    else if (decision.finished === 'clear') sets.push('finished_at = NULL');
    if (decision.started) sets.push('started_at = coalesce(started_at, now())');
    let where = 'id = $1';
    if (from) {
      args.push([...from]);
      where += ` AND status = ANY($${args.length})`;
    }
    const written = await client.query(`UPDATE runs SET ${sets.join(', ')} WHERE ${where}`, args);
    return written.rowCount === 1;
  }

  /** Records other URLs the page is known by; a queued item for one is dropped (unless a worker just took it). */
  private async addAliases(client: pg.PoolClient, runId: string, aliases: string[]): Promise<void> {
    await client.query(
      `INSERT INTO url_aliases (run_id, url_key) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [runId, aliases],
    );
    await client.query(
      `DELETE FROM items WHERE id IN (
         SELECT id FROM items WHERE run_id = $1 AND url_key = ANY($2) AND status = $3 FOR UPDATE SKIP LOCKED)`,
      [runId, aliases, WAITING_ITEM_STATUS],
    );
  }

  /**
   * Adds discovered URLs not seen in the run yet (as items or aliases), up to the run's item
   * limit, and moves a waiting item found again by a shorter path to that path: pages finish out
   * of order, so a link may first come from a deeper page, and its depth decides how far the crawl
   * goes on from it (`max_depth`). `keys` gets those the run holds after it.
   */
  private async addItems(
    client: pg.PoolClient,
    runId: string,
    urls: NonNullable<ItemOutcome['discovered']>,
    limit: number | undefined,
    keys: KnownUrlKey[],
  ): Promise<void> {
    let room = Number.POSITIVE_INFINITY;
    if (limit !== undefined) {
      // The run's items themselves, as its stats' total is read.
      const { rows } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM items WHERE run_id = $1',
        [runId],
      );
      room = limit - rows[0]!.n;
    }
    // In order, one by one up to the limit: which URLs make it must not depend on duplicates further on.
    for (const found of urls) {
      if (room <= 0) break;
      // Its item or alias is already there, no deeper: the statements would change nothing.
      if (this.knownKeys.has(runId, found.key, found.depth)) continue;
      const result = await client.query(
        `INSERT INTO items (id, run_id, url, url_key, depth, parent_url, status, updated_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, now()
         WHERE NOT EXISTS (SELECT 1 FROM url_aliases WHERE run_id = $2 AND url_key = $4)
         ON CONFLICT (run_id, url_key) DO NOTHING`,
        [newId('itm'), runId, found.url, found.key, found.depth, found.parentUrl, NEW_ITEM_STATUS],
      );
      const inserted = result.rowCount ?? 0;
      if (inserted === 0) {
        await client.query(
          `UPDATE items SET depth = $3, parent_url = $4
           WHERE run_id = $1 AND url_key = $2 AND status = $5 AND depth > $3`,
          [runId, found.key, found.depth, found.parentUrl, WAITING_ITEM_STATUS],
        );
      }
      // Inserted, or there already (an alias, or an item now at this depth or less, or no longer waiting).
      keys.push({ key: found.key, depth: found.depth });
      room -= inserted;
    }
  }

  async releaseItem(item: ClaimedItem): Promise<void> {
    await this.tx(async (client, atCommit) => {
      const released = await client.query(
        // Handed back, not lost: neither its claim nor a start under this lease counts.
        `UPDATE items SET status = $3, lease_owner = NULL, lease_token = NULL, attempts = greatest(attempts - 1, 0),
           starts = starts - CASE WHEN started_lease = lease_token THEN 1 ELSE 0 END, started_lease = NULL
         WHERE id = $1 AND lease_token = $2 AND status = ANY($4)`,
        [item.itemId, item.leaseToken, ITEM_MOVES.requeue.to, [...ITEM_MOVES.requeue.from]],
      );
      if (released.rowCount === 1) this.bumpAtCommit(client, atCommit, [item.runId]);
    });
  }

  /**
   * The reaper: items whose lease expired (their worker died or hangs) go back to the queue, but
   * those whose work started `maxStarts` times fail `crashed`, written as any outcome is (their runs
   * settle there), each still under the lease that ran out: another reaper's write wins.
   */
  async requeueInterrupted(options: {
    all: boolean;
    maxStarts?: number | undefined;
  }): Promise<InterruptedItems> {
    const interrupted = `status = ANY($1)${options.all ? '' : ' AND lease_until < now()'}`;
    const exhausted = await this.q<ExhaustedRow>(
      `SELECT id, run_id, url, depth, parent_url, lease_token, starts FROM items
       WHERE ${interrupted} AND starts >= $2`,
      [[...ITEM_MOVES.requeue.from], options.maxStarts ?? MAX_PAGE_STARTS],
    );
    const written = exhausted.length === 0 ? [] : await this.completeItems(crashedItems(exhausted));
    return this.tx(async (client, atCommit) => {
      const { rows } = await client.query<{ run_id: string }>(
        `UPDATE items SET status = $3, lease_owner = NULL, lease_token = NULL, updated_at = now()
         WHERE id IN (
           SELECT id FROM items WHERE ${interrupted} AND starts < $2
           FOR UPDATE SKIP LOCKED)
         RETURNING run_id`,
        [[...ITEM_MOVES.requeue.from], options.maxStarts ?? MAX_PAGE_STARTS, ITEM_MOVES.requeue.to],
      );
      const runIds = [...new Set(rows.map((row) => row.run_id))];
      await this.lockRuns(client, runIds);
      this.bumpAtCommit(client, atCommit, runIds);
      return { requeued: rows.length, crashed: crashedPages(exhausted, written) };
    });
  }

  private toResult(row: ResultRow): Result {
    return {
      id: row.id,
      run_id: row.run_id,
      url: row.url,
      final_url: row.final_url,
      status: row.status,
      title: row.title,
      depth: row.depth,
      parent_url: row.parent_url,
      http_status: row.http_status,
      content_type: row.content_type,
      data: row.data,
      has_screenshot: row.has_screenshot,
      screenshot_error: row.screenshot_error,
      error: row.error,
      created_at: iso(row.created_at)!,
    };
  }

  async listResults(
    owner: string,
    runId: string,
    listQuery: { status?: ResultStatus | undefined; limit: number; cursor?: string | undefined },
  ): Promise<Page<Result> | null> {
    const owned = await this.q('SELECT 1 FROM runs WHERE id = $1 AND owner = $2', [runId, owner]);
    if (owned.length === 0) return null;
    const where = ['run_id = $1'];
    const args: unknown[] = [runId];
    if (listQuery.status) {
      args.push(listQuery.status);
      where.push(`status = $${args.length}`);
    }
    if (listQuery.cursor) {
      args.push(decodeCursor(resultsCursorTag(runId), listQuery.cursor));
      where.push(`seq > $${args.length}`);
    }
    args.push(listQuery.limit + 1);
    const rows = await this.q<ResultRow>(
      `SELECT * FROM results WHERE ${where.join(' AND ')} ORDER BY seq LIMIT $${args.length}`,
      args,
    );
    const more = rows.length > listQuery.limit;
    const pageRows = rows.slice(0, listQuery.limit);
    return {
      data: pageRows.map((row) => this.toResult(row)),
      next_cursor: more ? encodeCursor(resultsCursorTag(runId), Number(pageRows.at(-1)!.seq)) : null,
    };
  }

  async getResult(owner: string, runId: string, resultId: string): Promise<Result | null> {
    const rows = await this.q<ResultRow>(
      'SELECT res.* FROM results res JOIN runs r ON r.id = res.run_id WHERE res.id = $1 AND res.run_id = $2 AND r.owner = $3',
      [resultId, runId, owner],
    );
    return rows[0] ? this.toResult(rows[0]) : null;
  }

  async getContent(resultId: string, format: ResultContentFormat): Promise<string | null> {
    const rows = await this.q<{ run_id: string; formats: string[] }>(
      'SELECT run_id, formats FROM results WHERE id = $1',
      [resultId],
    );
    if (!rows[0]?.formats.includes(format)) return null;
    const body = await this.options.blobs.get(`${resultPrefix(rows[0].run_id, resultId)}${format}`);
    return body === null ? null : body.toString('utf8');
  }

  async getScreenshot(runId: string, resultId: string): Promise<Buffer | null> {
    const rows = await this.q('SELECT 1 FROM results WHERE id = $1 AND run_id = $2 AND has_screenshot', [
      resultId,
      runId,
    ]);
    if (rows.length === 0) return null;
    return this.options.blobs.get(`${resultPrefix(runId, resultId)}${SCREENSHOT}`);
  }

  async hasCollection(owner: string, collection: string): Promise<boolean> {
    const rows = await this.q('SELECT 1 FROM search_documents WHERE owner = $1 AND collection = $2 LIMIT 1', [
      owner,
      collection,
    ]);
    return rows.length > 0;
  }

  async getDocument(owner: string, collection: string, documentId: string): Promise<StoredDocument | null> {
    // The document's URL is the page's final URL, as its result records it. A result and its
    // indexing are written in one transaction, so both carry that transaction's now(): the result
    // whose text the document holds is the one created when the document was indexed, even when
    // two runs indexed the page at the same time.
    const rows = await this.q<{
      id: string;
      url: string;
      title: string | null;
      body: string;
      indexed_at: Date;
      result_id: string | null;
    }>(
      `SELECT d.id, d.url, d.title, d.body, d.indexed_at, (
         SELECT r.id FROM search_document_runs dr JOIN results r ON r.run_id = dr.run_id
         WHERE dr.document_id = d.id AND r.final_url = d.url AND r.status = 'succeeded'
         ORDER BY r.created_at = d.indexed_at DESC, r.seq DESC LIMIT 1
       ) AS result_id
       FROM search_documents d WHERE d.id = $1 AND d.owner = $2 AND d.collection = $3`,
      [documentId, owner, collection],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      collection,
      url: row.url,
      title: row.title,
      text: row.body,
      indexedAt: row.indexed_at.toISOString(),
      resultId: row.result_id,
    };
  }

  async createApiKey(record: ApiKeyRecord): Promise<void> {
    await this.q(
      'INSERT INTO api_keys (id, owner, name, secret_hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [record.id, record.owner, record.name, record.secretHash, record.createdAt, record.revokedAt],
    );
  }

  private static toKey(row: KeyRow): ApiKeyRecord {
    return {
      id: row.id,
      owner: row.owner,
      name: row.name,
      secretHash: row.secret_hash,
      createdAt: row.created_at.toISOString(),
      revokedAt: iso(row.revoked_at),
    };
  }

  async findApiKey(id: string): Promise<ApiKeyRecord | null> {
    const rows = await this.q<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
    return rows[0] ? PostgresStore.toKey(rows[0]) : null;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return (await this.q<KeyRow>('SELECT * FROM api_keys ORDER BY created_at')).map(PostgresStore.toKey);
  }

  async revokeApiKey(id: string): Promise<boolean> {
    const rows = await this.q(
      'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING 1',
      [id],
    );
    return rows.length === 1;
  }

  async watchRuns(onChange: (change: RunChange) => void, onResync: () => void): Promise<() => Promise<void>> {
    const listener = new RunChangeListener(this.options.url, onChange, onResync, (error) =>
      this.options.onError?.(error),
    );
    await listener.start();
    return () => listener.close();
  }

  async close(): Promise<void> {
    await this.migrated?.catch(() => {});
    await this.pool.end().catch(mapPostgresError);
  }
}

interface ClaimedRow extends LeasedItemRow {
  seq: string;
}

interface KeyRow {
  id: string;
  owner: string;
  name: string;
  secret_hash: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** Constant states (from the state machine) written into SQL text: the planner sees them as it would literals. */
function literals(states: readonly string[]): string {
  return states
    .map((state) => {
      if (!/^[a-z-]+$/.test(state)) throw new Error(`not a state: ${state}`);
      return `'${state}'`;
    })
    .join(', ');
}

/** What a claim does to each run it takes items of, as the state machine decides it for every status. */
const CLAIMED_RUN_SET = `status = CASE status ${RunStatus.options
  .filter((status) => claimDecision(status).status !== status)
  .map((status) => `WHEN ${literals([status])} THEN ${literals([claimDecision(status).status])}`)
  .join(
    ' ',
  )} ELSE status END${claimDecision(NEW_RUN_STATUS).started ? ', started_at = coalesce(started_at, now())' : ''}`;

/**
 * One claim: up to $1 queued items from each active run (oldest first within
 * a run; runs by age, rotated by $5 of $6), $2 in all, skipping items another worker is
 * claiming right now; each gets a fresh lease token and an expiry on the
 * database's clock.
 */
const CLAIM_SQL = `
  WITH picked AS (
    SELECT q.id FROM (
      SELECT run_id, share, lookahead
      FROM unnest($1::text[], $5::int[], $6::int[]) WITH ORDINALITY AS turn(run_id, share, lookahead, place)
      ORDER BY place
    ) active
    CROSS JOIN LATERAL (
      -- A run's items at its waiting origins ($7, $8: the run, the URL prefix) are passed over,
      -- looking its lookahead of items further (0 for a run with none).
      SELECT c.id FROM (
        SELECT i.id, i.url, i.seq FROM items i
        WHERE i.run_id = active.run_id AND i.status IN (${literals(ITEM_MOVES.claim.from)})
        ORDER BY i.seq LIMIT active.share + active.lookahead FOR UPDATE SKIP LOCKED
      ) c
      WHERE NOT EXISTS (
        SELECT 1 FROM unnest($7::text[], $8::text[]) AS passed(run_id, prefix)
        WHERE passed.run_id = active.run_id AND starts_with(c.url, passed.prefix)
      )
      ORDER BY c.seq LIMIT active.share
    ) q
    -- No ORDER BY here: the nested loop keeps the runs' order and stops at the limit, so only the
    -- items handed out are locked.
    LIMIT $2
  )
  UPDATE items SET status = ${literals([ITEM_MOVES.claim.to])}, lease_owner = $3, lease_token = gen_random_uuid()::text,
    lease_until = now() + $4 * interval '1 millisecond', attempts = attempts + 1, updated_at = now()
  FROM picked WHERE items.id = picked.id
  RETURNING items.seq, items.id, items.run_id, items.url, items.depth, items.parent_url, items.lease_token`;
