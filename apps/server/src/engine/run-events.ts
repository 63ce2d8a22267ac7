import { EventEmitter } from 'node:events';

const ANY_RUN = Symbol('any run');

/**
 * Notice that a run changed, so a long poll answers at once instead of on its
 * next check. Changes made in this process are told directly; with a shared
 * store (PostgreSQL) the store's notifications tell those of other processes,
 * and the long poll's periodic version check remains as a backstop.
 */
export class RunEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  notify(runId: string): void {
    this.emitter.emit(runId);
    this.emitter.emit(ANY_RUN, runId);
  }

  /**
   * Wakes every waiting long poll and drops every cached snapshot: changes
   * may have been missed (the shared store's notifications were cut), so
   * each re-reads its run.
   */
  notifyAll(): void {
    for (const runId of this.emitter.eventNames()) {
      if (typeof runId === 'string') this.notify(runId);
    }
    this.emitter.emit(ANY_RUN, null);
  }

  /** Calls `listener` with the id of every run that changes in this process (null: any run may have changed). */
  onAnyChange(listener: (runId: string | null) => void): void {
    this.emitter.on(ANY_RUN, listener);
  }

  /**
   * Resolves when `ready()` says so, or after `timeoutMs`, or when `signal`
   * aborts. `ready` is asked at once, on every notice about one of `runIds`
   * (`'any'`: about any run) and every `checkEveryMs` (changes made by other
   * processes send no notice here). Serves the per-run and the batched long poll.
   */
  async waitUntil(
    runIds: readonly string[] | 'any',
    ready: () => Promise<boolean>,
    options: WaitOptions,
  ): Promise<void> {
    if (await ready()) return;
    const events: (string | symbol)[] = runIds === 'any' ? [ANY_RUN] : [...new Set(runIds)];
    await new Promise<void>((resolve) => {
      let checking = false;
      let again = false;
      let done = false;
      const finish = () => {
        done = true;
        clearTimeout(timeout);
        clearInterval(interval);
        for (const event of events) this.emitter.off(event, check);
        options.signal?.removeEventListener('abort', finish);
        resolve();
      };
      // One check at a time: a burst of notices costs one more check, not one each.
      const check = () => {
        if (done) return;
        if (checking) {
          again = true;
          return;
        }
        checking = true;
        ready().then((yes) => {
          checking = false;
          if (yes) finish();
          else if (again) {
            again = false;
            check();
          }
        }, finish);
      };
      const timeout = setTimeout(finish, options.timeoutMs);
      const interval = setInterval(check, options.checkEveryMs ?? 1000);
      for (const event of events) this.emitter.on(event, check);
      options.signal?.addEventListener('abort', finish, { once: true });
    });
  }
}

/** How long a wait lasts and what ends it early. */
export interface WaitOptions {
  timeoutMs: number;
  checkEveryMs?: number;
  signal?: AbortSignal | undefined;
}
