import { EventEmitter } from 'node:events';

const ANY_RUN = Symbol('any run');

/**
 * In-process notice that a run changed, so a long poll answers at once
 * instead of on its next check. Changes made by other processes (scale-out)
 * are seen by the long poll's periodic version check.
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

  /** Calls `listener` with the id of every run that changes in this process. */
  onAnyChange(listener: (runId: string) => void): void {
    this.emitter.on(ANY_RUN, listener);
  }

  /**
   * Resolves when `currentVersion()` differs from `version`, or after
   * `timeoutMs`, or when `signal` aborts; checks on every notice and every
   * `checkEveryMs`.
   */
  async waitForChange(
    runId: string,
    version: number,
    currentVersion: () => Promise<number | null>,
    options: { timeoutMs: number; checkEveryMs?: number; signal?: AbortSignal | undefined },
  ): Promise<void> {
    const changed = async () => {
      const now = await currentVersion();
      return now === null || now !== version;
    };
    if (await changed()) return;
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timeout);
        clearInterval(interval);
        this.emitter.off(runId, check);
        options.signal?.removeEventListener('abort', finish);
        resolve();
      };
      const check = () => {
        changed().then((yes) => yes && finish(), finish);
      };
      const timeout = setTimeout(finish, options.timeoutMs);
      const interval = setInterval(check, options.checkEveryMs ?? 1000);
      this.emitter.on(runId, check);
      options.signal?.addEventListener('abort', finish, { once: true });
    });
  }
}
