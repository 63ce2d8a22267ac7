/** Keys held for all runs together before the memory is given back (a cache miss only costs a statement). */
const MAX_KEYS = 200_000;

/** A URL key a run holds, and the depth at or below which finding it again changes nothing (0 for an alias). */
export interface KnownUrlKey {
  key: string;
  depth: number;
}

/**
 * The URL keys each run is known to hold in committed rows, as an item or
 * an alias, each with the depth the store can no longer lower: a discovered
 * link whose key is here at that depth or less would change nothing (the
 * store's insert is ignored, and a waiting item is only ever moved to a
 * shorter path), so the store skips its statements. Most of a page's links
 * are to pages the run already has (its navigation, its siblings), and each
 * was one statement a link, or one round trip with PostgreSQL.
 *
 * Keys are recorded only after the transaction that wrote or met them has
 * committed: a rolled-back batch teaches nothing. What the set does not hold
 * is looked up by the statements as before, so it may be cleared at any time
 * (it is, as a whole, past `MAX_KEYS`) and is empty after a restart.
 */
export class KnownUrlKeys {
  private readonly runs = new Map<string, Map<string, number>>();
  private size = 0;

  /** Whether `key` is one of `runId`'s items or aliases at `depth` or less (false when not known here). */
  has(runId: string, key: string, depth: number): boolean {
    const known = this.runs.get(runId)?.get(key);
    return known !== undefined && known <= depth;
  }

  /** Records keys that committed rows of `runId` hold, each at the depth it can no longer be lowered below. */
  add(runId: string, keys: readonly KnownUrlKey[]): void {
    if (keys.length === 0) return;
    if (this.size + keys.length > MAX_KEYS) this.clear();
    let known = this.runs.get(runId);
    if (!known) {
      known = new Map();
      this.runs.set(runId, known);
    }
    for (const { key, depth } of keys) {
      const before = known.get(key);
      if (before === undefined) this.size += 1;
      else if (before <= depth) continue;
      known.set(key, depth);
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
