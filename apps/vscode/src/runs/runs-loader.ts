import type { RunsApi } from './runs-api.js';
import type { RunsStore } from './runs-store.js';

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
        this.#store.replaceFirstPage(page);
      } catch (error) {
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
          limit: this.#pageSize,
          cursor: more ? (known.nextCursor ?? undefined) : undefined,
        });
        this.#store.setResults(runId, page, more);
      } catch (error) {
        this.#store.setResultsState(runId, { state: 'error', error });
        throw error;
      }
    });
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
