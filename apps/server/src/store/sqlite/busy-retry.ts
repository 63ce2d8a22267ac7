import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../store.js';
import { storeUnavailable } from '../unavailable.js';

/**
 * How long one statement waits for a lock another connection holds. The wait
 * happens inside better-sqlite3, which is synchronous, so it holds the event
 * loop: it is kept short, and longer waits happen between tries, off the loop.
 */
export const BUSY_TIMEOUT_MS = 20;

/** How long a store call keeps trying while the file is locked before it answers `unavailable` (503). */
export const BUSY_RETRY_BUDGET_MS = 1000;

/** The longest pause between two tries. */
const MAX_PAUSE_MS = 100;

/** Whether `error` is SQLite saying another connection holds a lock for now (`SQLITE_BUSY*`, `SQLITE_LOCKED*`). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/**
 * Runs `work` until it does not meet a locked database, pausing between
 * tries (5 ms, doubling up to 100 ms) so other requests are served meanwhile.
 * Past `budgetMs` the store is taken as away for a moment: the error becomes
 * {@link storeUnavailable}, which the API answers with 503 and `Retry-After`.
 * Each try is one transaction (or one statement), so a failed try left
 * nothing behind and trying again is safe.
 */
export async function retryWhileBusy<T>(work: () => Promise<T>, budgetMs = BUSY_RETRY_BUDGET_MS): Promise<T> {
  const deadline = performance.now() + budgetMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    try {
      return await work();
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      if (performance.now() + pause > deadline) throw storeUnavailable(error);
      await sleep(pause);
    }
  }
}

/** The store's methods that read or write the database (all but `close`). */
type StoreCall = {
  [K in keyof Store]-?: NonNullable<Store[K]> extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof Store];

/**
 * Every database call of the store, each marked whether it goes through
 * {@link retryWhileBusy}. A `Record` over all of them, so a method added to
 * `Store` does not compile until it is listed here.
 */
const RETRIED: Record<StoreCall, boolean> = {
  createRun: true,
  getRun: true,
  getRunHead: true,
  listRuns: true,
  changeCursor: true,
  listRunChanges: true,
  cancelRun: true,
  retryRun: true,
  deleteRun: true,
  claimItems: true,
  renewLease: true,
  startItem: true,
  completeItem: true,
  completeItems: true,
  releaseItem: true,
  requeueInterrupted: true,
  listResults: true,
  getResult: true,
  getContent: true,
  getScreenshot: true,
  hasCollection: true,
  getDocument: true,
  createApiKey: true,
  findApiKey: true,
  listApiKeys: true,
  revokeApiKey: true,
  watchRuns: false,
  close: false,
};

/**
 * Wraps the database calls of `store` (an SQLite store) in
 * {@link retryWhileBusy}, so another process holding the file's lock makes a
 * call wait off the event loop and then fail with 503, never a 500 or a
 * frozen server.
 */
export function retryStoreCallsWhileBusy(store: Store): void {
  const calls = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const [name, retried] of Object.entries(RETRIED)) {
    const call = calls[name];
    if (!retried || typeof call !== 'function') continue;
    calls[name] = (...args: unknown[]) => retryWhileBusy(() => call.apply(store, args));
  }
}
