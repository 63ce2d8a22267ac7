import type {
  Result,
  ResultContentFormat,
  ResultStatus,
  Run,
  RunStatus,
  RunType,
  TypedRunParams,
} from '@webdata/contract';
import type { DiscoveredUrl } from '../crawl/discover-links.js';
import type { IndexedDocument, SearchIndexLike } from '../search/types.js';
import type { WaitingOrigins } from './claim-order.js';

/**
 * Runs one owner may have queued or running at once, by default (`WEBDATA_MAX_ACTIVE_RUNS`).
 *
 * Why: nothing else bounded them. At its rate limit one key created 627 crawls of 100 pages in
 * 30 s (62,700 queued items, 30 MB of SQLite) and could go on for as long as it liked; each run
 * of up to 10,000 pages. A client with more work waits for one of its runs to end (429 with
 * `Retry-After`).
 */
export const MAX_ACTIVE_RUNS_PER_OWNER = 100;

/**
 * Thrown by {@link Store.createRun} and {@link Store.retryRun} when the owner already has
 * `limit` runs queued or running; nothing was written.
 */
export class ActiveRunLimitError extends Error {
  constructor(readonly limit: number) {
    super(`the owner already has ${limit} runs queued or running`);
    this.name = 'ActiveRunLimitError';
  }
}

/** A run as stored: the wire object plus what only the server knows. */
export interface StoredRun {
  run: Run;
  owner: string;
  /** Increases on every change of the run, its stats or its results: ETags and long polls use it. */
  version: number;
}

/** A work item handed to a worker: one URL of one run, with what the worker needs of the run. */
export interface ClaimedItem {
  itemId: string;
  runId: string;
  owner: string;
  runType: RunType;
  /** The run's params as stored (parsed JSON); the engine reads them with the contract's schema of `runType`. */
  params: unknown;
  url: string;
  depth: number;
  parentUrl: string | null;
  /** Proof of the lease: completing or renewing an item needs it, so a stale worker cannot write. */
  leaseToken: string;
}

/** What a worker hands back for one item; stored in one transaction. */
export interface ItemOutcome {
  status: ResultStatus;
  result: Pick<
    Result,
    | 'final_url'
    | 'title'
    | 'http_status'
    | 'content_type'
    | 'data'
    | 'error'
    | 'has_screenshot'
    | 'screenshot_error'
  >;
  contents: Partial<Record<ResultContentFormat, string>>;
  screenshot?: Buffer | undefined;
  discovered?: DiscoveredUrl[] | undefined;
  /** Other normalised URLs this page is known by (redirect target, rel=canonical): never fetched again in the run. */
  aliases?: string[] | undefined;
  /** Upper bound of the run's item count; discovered URLs beyond it are dropped. */
  itemLimit?: number | undefined;
  document?: IndexedDocument | undefined;
}

/** What a store needs of a leased item to write its outcome: which item, under which lease, and where the run found it. */
export type LeasedItem = Pick<ClaimedItem, 'itemId' | 'runId' | 'url' | 'depth' | 'parentUrl' | 'leaseToken'>;

/** A finished item and its outcome, as a batch write takes them. */
export interface CompletedItem {
  item: LeasedItem;
  outcome: ItemOutcome;
}

/**
 * A change of a run as announced to every process sharing a store: its new
 * version and status (`deleted` once it is gone).
 */
export interface RunChange {
  id: string;
  version: number;
  status: RunStatus | 'deleted';
}

/** Filters and page of a run list. */
export interface RunListQuery {
  owner: string;
  status?: RunStatus | undefined;
  type?: RunType | undefined;
  ids?: string[] | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** Which runs changed after a position in the store's sequence of run changes. */
export interface RunChangesQuery {
  owner: string;
  /** A position from {@link Store.changeCursor} or an earlier {@link RunChanges.cursor}. */
  since: number;
  /** Only these runs (else every run of the owner). */
  ids?: string[] | undefined;
  limit: number;
}

/** Runs that changed, oldest change first, and the position after the last of them. */
export interface RunChanges {
  runs: Run[];
  /** Pass back as `since` to get only later changes; `since` itself when nothing changed. */
  cursor: number;
  /**
   * With `ids`: those that name no run of the owner (deleted or unknown).
   * Without: runs of the owner deleted since (their tombstones, kept a day), in order with the runs.
   */
  missing: string[];
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** A document of a collection's search index, as the document endpoint reads it. */
export interface StoredDocument {
  id: string;
  collection: string;
  url: string;
  title: string | null;
  /** The plain text the collection indexed (its search body). */
  text: string;
  indexedAt: string;
  /**
   * The result the document was last indexed from (the newest succeeded
   * result of the runs that indexed it, for its URL): its stored formats are
   * the document's other formats. Null when there is none.
   */
  resultId: string | null;
}

/** An API key as stored: only a hash of its secret. */
export interface ApiKeyRecord {
  id: string;
  owner: string;
  name: string;
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
}

/** New run to store, with its first work items: its `type` and `params` as the contract types them. */
export type NewRun = TypedRunParams & {
  owner: string;
  urls: string[];
  items: { url: string; key: string; depth: number }[];
  idempotencyKey?: string | undefined;
  /**
   * Refuse the creation ({@link ActiveRunLimitError}) when the owner already has this many runs
   * queued or running (checked after the idempotency key: a replay answers its run). Unset: no limit.
   */
  maxActiveRuns?: number | undefined;
};

/**
 * Everything the server persists. The embedded default is SQLite
 * (`sqlite/`); a PostgreSQL store implements the same interface for
 * scale-out. No SQL lives outside `store/`.
 */
/**
 * What {@link Store.requeueInterrupted} did with the items whose work was interrupted.
 *
 * @example
 * ```ts
 * const { requeued, crashed } = await store.requeueInterrupted({ all: true, maxStarts: 3 });
 * for (const page of crashed) log.warn(page, 'page failed: crashed');
 * ```
 */
export interface InterruptedItems {
  /** How many went back to the queue. */
  requeued: number;
  /** The pages failed `crashed` (their work started `starts` times), as written: another reaper's write is not here. */
  crashed: { runId: string; url: string; starts: number }[];
}

export interface Store {
  /** Creates the run, or returns the run first created with the same idempotency key (`created: false`). */
  createRun(input: NewRun): Promise<{ run: StoredRun; created: boolean }>;
  getRun(owner: string, runId: string): Promise<StoredRun | null>;
  /** The owner and version of a run: enough to answer 404, 304 or a cached snapshot without reading the run. */
  getRunHead(runId: string): Promise<{ owner: string; version: number } | null>;
  listRuns(query: RunListQuery): Promise<Page<Run>>;
  /**
   * The current position in the store-wide sequence of run changes: every
   * creation and every version of any run takes the next number. Read it
   * before reading runs, and a later {@link listRunChanges} from it misses nothing.
   */
  changeCursor(): Promise<number>;
  /** Runs of the owner that changed after `since`, oldest change first (the batched long poll). */
  listRunChanges(query: RunChangesQuery): Promise<RunChanges>;
  /** Cancels a queued or running run: queued items become cancelled. Null when the state does not allow it. */
  cancelRun(owner: string, runId: string): Promise<StoredRun | null>;
  /**
   * Re-queues only the items that did not succeed. Null when the state does not allow it; with
   * `maxActiveRuns`, {@link ActiveRunLimitError} when the owner already has that many runs active.
   */
  retryRun(owner: string, runId: string, maxActiveRuns?: number): Promise<StoredRun | null>;
  /** Removes a run with its items, results, contents, screenshots and search documents. */
  deleteRun(owner: string, runId: string): Promise<boolean>;

  /**
   * Leases up to `count` queued items to `workerId` for `leaseMs`. A run in `waiting` has pages
   * waiting for their host's turn at the origins given for it: its items at those origins are
   * passed over (more of them would only wait too), looking at most `CLAIM_LOOKAHEAD` of its
   * queued items past them, so its pages of other hosts go on.
   */
  claimItems(
    workerId: string,
    count: number,
    leaseMs: number,
    waiting?: WaitingOrigins,
  ): Promise<ClaimedItem[]>;
  renewLease(item: ClaimedItem, leaseMs: number): Promise<boolean>;
  /**
   * Marks that work on the item started under this lease (its first request went out): counted
   * once per lease, durably, before the work can kill the process. Undone when the lease is given
   * back ({@link releaseItem}); an item whose lease ran out after `maxStarts` such starts fails
   * `crashed` ({@link requeueInterrupted}). False when the lease is no longer held.
   */
  startItem(item: ClaimedItem): Promise<boolean>;
  /** Stores the outcome of an item; false (and nothing written) when the lease was lost or the run is gone. */
  completeItem(item: ClaimedItem, outcome: ItemOutcome): Promise<boolean>;
  /**
   * Stores several outcomes at once (group commit), each exactly as
   * {@link completeItem} would: each is checked against its own lease, and
   * one whose lease was lost is not written (false at its index) while the
   * others are. Nothing is written when the call throws.
   */
  completeItems(batch: readonly CompletedItem[]): Promise<boolean[]>;
  /**
   * Puts a leased item back in the queue (graceful shutdown, a claim not started): neither its
   * claim nor a start under this lease is counted.
   */
  releaseItem(item: ClaimedItem): Promise<void>;
  /**
   * Puts items whose lease expired, or all running items when `all`, back in the queue, except
   * those whose work started `maxStarts` times ({@link startItem}; default `MAX_PAGE_STARTS`):
   * those end failed with `crashedOutcome` (crashed-outcome.ts), a result like any other, and their
   * runs settle when nothing else is left.
   */
  requeueInterrupted(options: { all: boolean; maxStarts?: number | undefined }): Promise<InterruptedItems>;

  listResults(
    owner: string,
    runId: string,
    query: { status?: ResultStatus | undefined; limit: number; cursor?: string | undefined },
  ): Promise<Page<Result> | null>;
  getResult(owner: string, runId: string, resultId: string): Promise<Result | null>;
  getContent(resultId: string, format: ResultContentFormat): Promise<string | null>;
  getScreenshot(runId: string, resultId: string): Promise<Buffer | null>;

  /** True when the owner's collection holds a document: collections exist by their documents. */
  hasCollection(owner: string, collection: string): Promise<boolean>;
  /** A document of the owner's collection by its `doc_…` id; null when there is none there. */
  getDocument(owner: string, collection: string, documentId: string): Promise<StoredDocument | null>;

  createApiKey(record: ApiKeyRecord): Promise<void>;
  findApiKey(id: string): Promise<ApiKeyRecord | null>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  revokeApiKey(id: string): Promise<boolean>;

  /** The search index over the same database. */
  readonly search: SearchIndexLike;

  /**
   * True when other processes may share this store (PostgreSQL): work left
   * by a dead process is found by its expired lease, never by "everything
   * running is mine" at start-up.
   */
  readonly shared: boolean;
  /** What the store is, for the start banner and logs (no secrets). */
  readonly description: string;
  /**
   * Announces changes made by any process sharing the store (this one
   * included) and calls `onResync` after changes may have been missed (a
   * lost connection). Absent when only this process writes the store.
   * Resolves to a function that stops watching.
   */
  watchRuns?(onChange: (change: RunChange) => void, onResync: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
