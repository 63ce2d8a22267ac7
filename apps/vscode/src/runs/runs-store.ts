import { isTerminalStatus, runSnapshotKey } from '@webdata/core';
import { Subject } from 'rxjs';
import type { FailedPages } from './retry-helps.js';
import type { Page, Result, Run, RunFilter } from './run-types.js';

/**
 * What changed in the store: the list itself (runs added, removed, reordered,
 * a load started or ended), or one run (its snapshot or its results).
 */
export type StoreChange = { scope: 'list' } | { scope: 'run'; id: string };

/** Where a list stands: not fetched yet, there, or failed (with the error). */
export type LoadState = { state: 'unloaded' } | { state: 'loaded' } | { state: 'error'; error: unknown };

/** The loaded results of one run, page after page. */
export interface RunResults {
  items: Result[];
  nextCursor: string | null;
  load: LoadState;
  /** When the first page was loaded (the store's clock), for {@link RESULTS_REFRESH_MS}. */
  loadedAt?: number | undefined;
}

/**
 * The results of a run in flight are read again at most this often, however
 * often its snapshot changes; a change of status (it ended, or a retry began)
 * reads them again at once. Redrawn at every snapshot (four a second on a busy
 * crawl), an expanded run in flight had asked for its results 39 times in 10 s.
 */
export const RESULTS_REFRESH_MS = 2_000;

const UNLOADED: RunResults = { items: [], nextCursor: null, load: { state: 'unloaded' } };

/**
 * The runs the extension knows, newest first, with the results loaded for
 * each, fed by the client's pages and snapshots. It fetches nothing itself
 * and knows nothing of VS Code: the tree, the status bar and the commands all
 * read it, and `changes$` says exactly what changed so that only that is redrawn.
 */
export class RunsStore {
  readonly #changes = new Subject<StoreChange>();
  /** Every change, as it happens (synchronously). */
  readonly changes$ = this.#changes.asObservable();
  readonly #runs = new Map<string, Run>();
  #order: string[] = [];
  #nextCursor: string | null = null;
  #list: LoadState = { state: 'unloaded' };
  #filter: RunFilter = {};
  readonly #results = new Map<string, RunResults>();
  /** The failed pages of ended runs, read for their rows' Retry, with the snapshot they were read at. */
  readonly #failedPages = new Map<string, { key: string; pages: FailedPages }>();
  readonly #clock: () => number;

  /** `clock`: milliseconds, for the age of loaded results (virtual in tests). */
  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  /** The runs, newest first. */
  get runs(): Run[] {
    return this.#order.map((id) => this.#runs.get(id)!);
  }

  get listState(): LoadState {
    return this.#list;
  }

  /** Whether the server has more (older) runs than those loaded. */
  get hasMore(): boolean {
    return this.#nextCursor !== null;
  }

  get nextCursor(): string | null {
    return this.#nextCursor;
  }

  get filter(): RunFilter {
    return this.#filter;
  }

  get(id: string): Run | undefined {
    return this.#runs.get(id);
  }

  /** Ids of the loaded runs still in flight (an unknown status counts as in flight). */
  inFlightIds(): string[] {
    return this.#order.filter((id) => !isTerminalStatus(this.#runs.get(id)!.status));
  }

  /** Changes the filter and forgets the list, which the next load fetches anew. */
  setFilter(filter: RunFilter): void {
    this.#filter = { ...filter };
    this.#clear({ state: 'unloaded' });
  }

  /** Forgets every run (say, when the service or the key changed). */
  reset(): void {
    this.#clear({ state: 'unloaded' });
  }

  /**
   * Asks for the list again without forgetting it (Refresh Runs): the runs stay shown until the
   * fresh first page replaces them, and stay, stale, when the listing fails (the view's message
   * then says the service stopped answering), as a run browser keeps its list when offline.
   */
  relist(): void {
    this.setListState({ state: 'unloaded' });
  }

  setListState(load: LoadState): void {
    this.#list = load;
    this.#emit({ scope: 'list' });
  }

  /** The first page of a fresh listing: replaces what was there (results of runs that stay are kept). */
  replaceFirstPage(page: Page<Run>): void {
    const ids = new Set(page.data.map((run) => run.id));
    for (const id of this.#order) if (!ids.has(id)) this.#results.delete(id);
    this.#runs.clear();
    this.#order = [];
    this.#addAtEnd(page.data);
    this.#nextCursor = page.next_cursor ?? null;
    this.#list = { state: 'loaded' };
    this.#emit({ scope: 'list' });
  }

  /** The next page ("Load more"). */
  appendPage(page: Page<Run>): void {
    this.#addAtEnd(page.data);
    this.#nextCursor = page.next_cursor ?? null;
    this.#emit({ scope: 'list' });
  }

  /**
   * Folds in a fresh first page (the periodic list refresh): runs not seen
   * before go on top, known ones take the fresher snapshot, and a loaded run
   * that the page should contain but does not (it lies above a run the page
   * shares with the list, or the page is the last) was deleted elsewhere.
   * Returns false when the page has no run in common with the list while the
   * list is not empty: then more runs arrived than one page holds, and the
   * caller should reload the first page instead.
   */
  mergeLatest(page: Page<Run>): boolean {
    if (page.data.length === 0) {
      if (this.#order.length > 0 && !page.next_cursor) this.#removeMany(this.#order);
      return true;
    }
    const fresh = page.data.filter((run) => !this.#runs.has(run.id));
    if (this.#order.length > 0 && fresh.length === page.data.length && page.next_cursor) return false;
    const changed: string[] = [];
    for (const run of page.data) if (this.#runs.has(run.id) && this.#update(run)) changed.push(run.id);
    // The page covers every run above the lowest one it shares with the list (all of them on the last page).
    const listed = new Set(page.data.map((run) => run.id));
    const reach = page.next_cursor
      ? Math.max(0, ...page.data.map((run) => this.#order.indexOf(run.id)))
      : this.#order.length;
    const gone = this.#order.slice(0, reach).filter((id) => !listed.has(id));
    const endReached = !page.next_cursor && this.#nextCursor !== null;
    if (endReached) this.#nextCursor = null;
    if (fresh.length === 0 && gone.length === 0 && !endReached) {
      for (const id of changed) this.#emit({ scope: 'run', id });
      return true;
    }
    for (const run of fresh) this.#runs.set(run.id, run);
    // Newest first, in the server's order: what is new is newer than what was listed.
    this.#order = [...fresh.map((run) => run.id), ...this.#order];
    if (gone.length > 0) this.#removeMany(gone, false);
    this.#emit({ scope: 'list' });
    return true;
  }

  /**
   * A snapshot of a run from a watch. Returns true when it changed anything
   * (a redraw of that run is then announced; its results, which may have
   * grown, are forgotten so that an expanded run reloads them, unless they
   * were read less than {@link RESULTS_REFRESH_MS} ago and the status is the same).
   */
  applySnapshot(run: Run): boolean {
    if (!this.#runs.has(run.id) || !this.#update(run)) return false;
    this.#emit({ scope: 'run', id: run.id });
    return true;
  }

  /** A run this extension just created or acted on: updated in place, or put on top when new. */
  upsert(run: Run): void {
    if (this.#runs.has(run.id)) {
      this.applySnapshot(run);
      return;
    }
    if (!matches(run, this.#filter)) return;
    this.#runs.set(run.id, run);
    this.#order.unshift(run.id);
    this.#emit({ scope: 'list' });
  }

  remove(id: string): void {
    if (this.#runs.has(id)) this.#removeMany([id]);
  }

  resultsOf(runId: string): RunResults {
    return this.#results.get(runId) ?? UNLOADED;
  }

  setResultsState(runId: string, load: LoadState): void {
    this.#results.set(runId, { ...this.resultsOf(runId), load });
    this.#emit({ scope: 'run', id: runId });
  }

  /** A page of a run's results: the first one replaces, a later one (`append`) adds. */
  setResults(runId: string, page: Page<Result>, append: boolean): void {
    const before = append ? this.resultsOf(runId).items : [];
    this.#results.set(runId, {
      items: [...before, ...page.data],
      nextCursor: page.next_cursor ?? null,
      load: { state: 'loaded' },
      loadedAt: append ? this.resultsOf(runId).loadedAt : this.#clock(),
    });
    this.#emit({ scope: 'run', id: runId });
  }

  /**
   * What is known of an ended run's failed pages (for its row's Retry), as read at its current
   * snapshot; `undefined` when not read since it last changed (a retry makes them stale).
   */
  failedPagesOf(runId: string): FailedPages | undefined {
    const run = this.#runs.get(runId);
    const known = this.#failedPages.get(runId);
    return run && known && known.key === runSnapshotKey(run) ? known.pages : undefined;
  }

  /** The failed pages of a run as read at the snapshot `run` (its row is redrawn). */
  setFailedPages(run: Run, pages: FailedPages): void {
    this.#failedPages.set(run.id, { key: runSnapshotKey(run), pages });
    if (this.#runs.has(run.id)) this.#emit({ scope: 'run', id: run.id });
  }

  #update(run: Run): boolean {
    const known = this.#runs.get(run.id)!;
    if (runSnapshotKey(known) === runSnapshotKey(run)) return false;
    this.#runs.set(run.id, run);
    const results = this.#results.get(run.id);
    const fresh =
      results?.loadedAt !== undefined &&
      known.status === run.status &&
      this.#clock() - results.loadedAt < RESULTS_REFRESH_MS;
    if (!fresh) this.#results.delete(run.id);
    return true;
  }

  #addAtEnd(runs: Run[]): void {
    for (const run of runs) {
      if (!this.#runs.has(run.id)) this.#order.push(run.id);
      this.#runs.set(run.id, run);
    }
  }

  #removeMany(ids: string[], emit = true): void {
    const drop = new Set(ids);
    for (const id of drop) {
      this.#runs.delete(id);
      this.#results.delete(id);
      this.#failedPages.delete(id);
    }
    this.#order = this.#order.filter((id) => !drop.has(id));
    if (emit) this.#emit({ scope: 'list' });
  }

  #clear(load: LoadState): void {
    this.#runs.clear();
    this.#order = [];
    this.#results.clear();
    this.#failedPages.clear();
    this.#nextCursor = null;
    this.#list = load;
    this.#emit({ scope: 'list' });
  }

  #emit(change: StoreChange): void {
    this.#changes.next(change);
  }
}

function matches(run: Run, filter: RunFilter): boolean {
  return (!filter.status || run.status === filter.status) && (!filter.type || run.type === filter.type);
}
