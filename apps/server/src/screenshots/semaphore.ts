import { TurnQueue } from '../turn-queue.js';

/**
 * A counting semaphore: at most `permits` holders at once. Waiters are queued
 * by a key (the owner whose work waits) in a {@link TurnQueue}: a freed permit
 * goes to the keys in turn. Without keys it is first come, first served. A waiter whose signal aborts leaves the queue and
 * rejects with the signal's reason.
 */
export class Semaphore {
  private available: number;
  private readonly queue = new TurnQueue<() => void>();

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
    return this.queue.size;
  }

  /**
   * Waits for a permit, queued under `key` (waiters of different keys take turns);
   * call the returned function exactly once to give it back.
   */
  async acquire(signal?: AbortSignal, key = ''): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.available > 0 && this.queue.size === 0) {
      this.available--;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.queue.remove(key, grant);
        reject(signal?.reason);
      };
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.queue.push(key, grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return this.releaser();
  }

  /** Runs `task` holding a permit. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal, key?: string): Promise<T> {
    const release = await this.acquire(signal, key);
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
      const next = this.queue.shift();
      if (next) next();
      else this.available++;
    };
  }
}
