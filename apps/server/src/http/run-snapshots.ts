import { isTerminalStatus, type Run } from '@webdata/contract';

/** A serialised run at one version. */
export interface RunSnapshot {
  version: number;
  json: string;
  terminal: boolean;
}

/**
 * Serialised run objects by run id, each tagged with the run's version. The
 * store bumps a run's version on every change, so a snapshot with the current
 * version is the run as the store would build it; polling a run then costs
 * one indexed read of (owner, version) instead of the run, its stats and a
 * serialisation. Bounded: the oldest entries go first.
 */
export class RunSnapshots {
  private readonly entries = new Map<string, RunSnapshot>();

  constructor(private readonly capacity = 10_000) {}

  get(runId: string, version: number): RunSnapshot | null {
    const entry = this.entries.get(runId);
    return entry && entry.version === version ? entry : null;
  }

  set(run: Run, version: number): RunSnapshot {
    const snapshot = { version, json: JSON.stringify(run), terminal: isTerminalStatus(run.status) };
    this.entries.delete(run.id);
    this.entries.set(run.id, snapshot);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return snapshot;
  }
}
