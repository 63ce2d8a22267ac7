/** Keys held for all runs together before the memory is given back (a cache miss only costs a statement). */
const MAX_KEYS = 200_000;

/**
 * The URL keys each run is known to hold in committed rows, as an item or
 * an alias: a discovered link whose key is here would be ignored by the
 * store's insert anyway (a run's items and aliases are only deleted with the
 * run), so the store skips the statement. Most of a page's links are to
 * pages the run already has (its navigation, its siblings), and each was one
 * statement a link, or one round trip with PostgreSQL.
 *
 * Keys are recorded only after the transaction that wrote or met them has
 * committed: a rolled-back batch teaches nothing. What the set does not hold
 * is looked up by the statement as before, so it may be cleared at any time
 * (it is, as a whole, past `MAX_KEYS`) and is empty after a restart.
 */
export class KnownUrlKeys {
  private readonly runs = new Map<string, Set<string>>();
  private size = 0;

  /** Whether `key` is one of `runId`'s items or aliases (false when not known here). */
  has(runId: string, key: string): boolean {
    return this.runs.get(runId)?.has(key) === true;
  }

  /** Records keys that committed rows of `runId` hold. */
  add(runId: string, keys: readonly string[]): void {
    if (keys.length === 0) return;
    if (this.size + keys.length > MAX_KEYS) this.clear();
    let known = this.runs.get(runId);
    if (!known) {
      known = new Set();
      this.runs.set(runId, known);
    }
    for (const key of keys) {
      if (known.has(key)) continue;
      known.add(key);
      this.size += 1;
    }
  }

  /** Forgets a run (deleted, or no longer crawling). */
  forget(runId: string): void {
    const known = this.runs.get(runId);
    if (!known) return;
    this.size -= known.size;
    this.runs.delete(runId);
  }

  private clear(): void {
    this.runs.clear();
    this.size = 0;
  }
}
