import { isTerminalStatus } from '@webdata/core';
import { Subject } from 'rxjs';
import type { Run } from './run-types.js';

/**
 * The runs started from this window and followed with a progress
 * notification, by id, with their latest snapshot. They count as in flight
 * in the status bar even when the Runs view (and so its watch) is hidden.
 */
export class StartedRuns {
  readonly #runs = new Map<string, Run>();
  readonly #changes = new Subject<void>();
  readonly changes$ = this.#changes.asObservable();

  /** Records a snapshot of a followed run; a terminal one stops counting. */
  update(run: Run): void {
    if (isTerminalStatus(run.status)) this.#runs.delete(run.id);
    else this.#runs.set(run.id, run);
    this.#changes.next();
  }

  /** Stops counting a run (it is no longer followed). */
  forget(id: string): void {
    if (this.#runs.delete(id)) this.#changes.next();
  }

  inFlightIds(): string[] {
    return [...this.#runs.keys()];
  }
}
