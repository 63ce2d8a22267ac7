import type { RunsApi } from './runs-api.js';
import type { RunsStore } from './runs-store.js';

/** The most results a page of the service's list holds (`limit`). */
const MAX_PAGE_SIZE = 200;

/**
 * Thrown by a load whose connection changed while it was out (another address
 * or key): its answer, or its failure, is of the previous service, and says
 * nothing of the connection now. The store is left as it is.
 */
export class StaleLoadError extends Error {
  override name = 'StaleLoadError';
  constructor() {
    super('the connection changed while the load was out');
  }
}

/**
 * One-shot loads into the {@link RunsStore}: the first page of runs, the
 * next page, a run's results. Each load leaves its outcome in the store
 * (loaded, or the error), and a load already under way is shared rather than
 * sent twice (VS Code may ask for the same children again meanwhile).
 */
export class RunsLoader {
  readonly #store: RunsStore;
  readonly #pending = new Map<string, Promise<void>>();
  #api: RunsApi | undefined;
  #pageSize: number;

  constructor(store: RunsStore, pageSize: number) {
    this.#store = store;
    this.#pageSize = pageSize;
  }

  /** The service to read from (`undefined` while there is no connection). */
  setApi(api: RunsApi | undefined): void {
    this.#api = api;
    this.#pending.clear();
  }

  setPageSize(pageSize: number): void {
    this.#pageSize = pageSize;
  }

  /** Lists the first page of runs, replacing the list. Rejects with the error (also kept in the store). */
  loadFirstPage(): Promise<void> {
    return this.#once('list', async (api) => {
      try {
        const page = await api.list({ ...this.#store.filter, limit: this.#pageSize });
        // The connection changed while the list was out (another address or key): the answer is of
        // the previous service, and the store, reset since, must not take it.
        if (this.#api !== api) throw new StaleLoadError();
        this.#store.replaceFirstPage(page);
      } catch (error) {
        if (this.#api !== api) throw error instanceof StaleLoadError ? error : new StaleLoadError();
        this.#store.setListState({ state: 'error', error });
        throw error;
      }
    });
  }

  /** Appends the next page of runs ("Load more"). */
  loadMoreRuns(): Promise<void> {
    return this.#once('more', async (api) => {
      const cursor = this.#store.nextCursor;
      if (cursor === null) return;
      const page = await api.list({ ...this.#store.filter, limit: this.#pageSize, cursor });
      if (this.#api !== api) throw new StaleLoadError();
      this.#store.appendPage(page);
    });
  }

  /** Loads a run's first page of results, or (`more`) its next one. */
  loadResults(runId: string, more = false): Promise<void> {
    return this.#once(`results:${runId}:${more}`, async (api) => {
      const known = this.#store.resultsOf(runId);
      if (more && known.nextCursor === null) return;
      try {
        const page = await api.resultsPage(runId, {
          limit: more ? this.#pageSize : this.#firstResultsPageSize(runId),
          cursor: more ? (known.nextCursor ?? undefined) : undefined,
        });
        if (this.#api !== api) throw new StaleLoadError();
        this.#store.setResults(runId, page, more);
      } catch (error) {
        if (this.#api !== api) throw error instanceof StaleLoadError ? error : new StaleLoadError();
        this.#store.setResultsState(runId, { state: 'error', error });
        throw error;
      }
    });
  }

  /**
   * Reads an ended run's failed pages (one request, at most 200 of them), for its row's Retry
   * (`retryHelps`): once per snapshot of the run, shared while under way. A failure to read
   * them is kept as `unreadable` (Retry is then offered) and logged by the caller.
   */
  loadFailedPages(runId: string): Promise<void> {
    return this.#once(`failed:${runId}`, async (api) => {
      const run = this.#store.get(runId);
      if (!run) return;
      try {
        const page = await api.resultsPage(runId, { status: 'failed', limit: MAX_PAGE_SIZE });
        if (this.#api !== api) throw new StaleLoadError();
        this.#store.setFailedPages(run, { results: page.data, complete: !page.next_cursor });
      } catch (error) {
        if (this.#api !== api) throw error instanceof StaleLoadError ? error : new StaleLoadError();
        this.#store.setFailedPages(run, 'unreadable');
        throw error;
      }
    });
  }

  /**
   * The first page of a run's results holds a result for each URL given (up to the 200 a page
   * holds), whatever the page size: the view lists them in the order given, and a page of the first
   * 50 to finish would have shown, say, the 3rd URL given and not the 1st until Load more… brought it.
   */
  #firstResultsPageSize(runId: string): number {
    const given = this.#store.get(runId)?.urls?.length ?? 0;
    return Math.max(this.#pageSize, Math.min(given, MAX_PAGE_SIZE));
  }

  #once(key: string, load: (api: RunsApi) => Promise<void>): Promise<void> {
    const api = this.#api;
    if (!api) return Promise.reject(new Error('not connected to a Web Data service'));
    const pending = this.#pending.get(key);
    if (pending) return pending;
    const promise = load(api).finally(() => {
      if (this.#pending.get(key) === promise) this.#pending.delete(key);
    });
    this.#pending.set(key, promise);
    return promise;
  }
}
