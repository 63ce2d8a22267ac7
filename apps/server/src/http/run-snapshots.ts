import { isTerminalStatus, type Run } from '@webdata/contract';

/** A serialised run at one version, and when the store last confirmed it. */
export interface RunSnapshot {
  owner: string;
  version: number;
  json: string;
  terminal: boolean;
  confirmedAt: number;
}

/**
 * Serialised run objects by run id, each tagged with the run's version (the
 * store bumps it on every change). A snapshot is served without touching the
 * store while it is fresh: every change made in this process drops it at once
 * (`invalidate`, fed by RunEvents), and changes made by other processes
 * sharing the store are picked up within `freshMs`. Polling a run then costs
 * no database read and no serialisation. Bounded: the oldest entries go first.
 */
export class RunSnapshots {
  private readonly entries = new Map<string, RunSnapshot>();

  constructor(
    private readonly freshMs = 500,
    private readonly capacity = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** A snapshot recent enough to serve as it is, or null. */
  fresh(runId: string): RunSnapshot | null {
    const entry = this.entries.get(runId);
    return entry && this.now() - entry.confirmedAt < this.freshMs ? entry : null;
  }

  /** The snapshot at `version` (confirming it again), or null. */
  at(runId: string, version: number): RunSnapshot | null {
    const entry = this.entries.get(runId);
    if (!entry || entry.version !== version) return null;
    entry.confirmedAt = this.now();
    return entry;
  }

  set(run: Run, owner: string, version: number): RunSnapshot {
    const snapshot: RunSnapshot = {
      owner,
      version,
      json: JSON.stringify(run),
      terminal: isTerminalStatus(run.status),
      confirmedAt: this.now(),
    };
    this.entries.delete(run.id);
    this.entries.set(run.id, snapshot);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return snapshot;
  }

  /** Drops the snapshot of `runId`, or all of them for null (changes may have been missed). */
  invalidate(runId: string | null): void {
    if (runId === null) this.entries.clear();
    else this.entries.delete(runId);
  }
}
