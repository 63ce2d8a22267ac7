/** Bounds of an {@link OwnerCache}: entries and total weight, for each owner and for all owners together. */
export interface OwnerCacheLimits {
  entriesPerOwner: number;
  weightPerOwner: number;
  entries: number;
  weight: number;
}

interface Entry<V> {
  owner: string;
  value: V;
  weight: number;
}

/** Entries held and their total weight. */
export interface Usage {
  entries: number;
  weight: number;
}

/**
 * A least-recently-used cache whose entries belong to owners. Each owner has
 * a budget of its own (entries and weight), so one owner's stream of new
 * entries evicts its own oldest ones and never another owner's; a global
 * budget bounds the whole. An owner only ever reads its own entries.
 */
export class OwnerCache<V> {
  /** By owner-qualified key, in least-recently-used order (a Map keeps insertion order). */
  private readonly entries = new Map<string, Entry<V>>();
  private readonly usage = new Map<string, Usage>();
  private total: Usage = { entries: 0, weight: 0 };

  constructor(private readonly limits: OwnerCacheLimits) {}

  get(owner: string, key: string): V | undefined {
    const id = qualified(owner, key);
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.value;
  }

  /** Adds or replaces an entry; an entry heavier than an owner's whole budget is not kept. */
  set(owner: string, key: string, value: V, weight: number): void {
    const id = qualified(owner, key);
    this.remove(id);
    if (weight > this.limits.weightPerOwner || weight > this.limits.weight) return;
    this.entries.set(id, { owner, value, weight });
    this.account(owner, 1, weight);
    const own = this.usage.get(owner)!;
    while (own.entries > this.limits.entriesPerOwner || own.weight > this.limits.weightPerOwner) {
      this.remove(this.oldestOf(owner));
    }
    while (this.total.entries > this.limits.entries || this.total.weight > this.limits.weight) {
      this.remove(this.entries.keys().next().value!);
    }
  }

  /** Entries and weight held for `owner`, or for all owners. */
  held(owner?: string): Usage {
    if (owner === undefined) return { ...this.total };
    return { ...(this.usage.get(owner) ?? { entries: 0, weight: 0 }) };
  }

  private oldestOf(owner: string): string {
    for (const [id, entry] of this.entries) if (entry.owner === owner) return id;
    throw new Error(`no entry of ${owner}`);
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.account(entry.owner, -1, -entry.weight);
  }

  private account(owner: string, entries: number, weight: number): void {
    const own = this.usage.get(owner) ?? { entries: 0, weight: 0 };
    own.entries += entries;
    own.weight += weight;
    if (own.entries === 0) this.usage.delete(owner);
    else this.usage.set(owner, own);
    this.total = { entries: this.total.entries + entries, weight: this.total.weight + weight };
  }
}

/** An owner-qualified key that no other (owner, key) pair can spell. */
function qualified(owner: string, key: string): string {
  return `${owner.length}:${owner}:${key}`;
}
