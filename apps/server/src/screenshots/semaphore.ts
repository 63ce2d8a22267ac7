/**
 * A counting semaphore: at most `permits` holders at once, the rest wait in
 * arrival order. A waiter whose signal aborts leaves the queue and rejects
 * with the signal's reason.
 */
export class Semaphore {
  private available: number;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly permits: number) {
    if (!Number.isInteger(permits) || permits < 1)
      throw new RangeError(`permits must be ≥ 1, got ${permits}`);
    this.available = permits;
  }

  /** Holders right now. */
  get inUse(): number {
    return this.permits - this.available;
  }

  /** Callers waiting for a permit. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Waits for a permit; call the returned function exactly once to give it back. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.available > 0) {
      this.available--;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiters.indexOf(grant);
        if (index !== -1) this.waiters.splice(index, 1);
        reject(signal?.reason);
      };
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.waiters.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return this.releaser();
  }

  /** Runs `task` holding a permit. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Hand the permit straight to the next waiter so no late arrival overtakes it.
      const next = this.waiters.shift();
      if (next) next();
      else this.available++;
    };
  }
}
