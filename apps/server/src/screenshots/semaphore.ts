/**
 * A counting semaphore: at most `permits` holders at once. Waiters are queued
 * by a key (the owner whose work waits): a freed permit goes to the keys in
 * turn, and within a key in arrival order, so one key with many waiters does
 * not make another key's one wait behind all of them. Without keys it is
 * first come, first served. A waiter whose signal aborts leaves the queue and
 * rejects with the signal's reason.
 */
export class Semaphore {
  private available: number;
  /** Waiters by key; the map's order is the keys' turn order (a served key goes to the end). */
  private readonly queues = new Map<string, Array<() => void>>();
  private queued = 0;

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
    return this.queued;
  }

  /**
   * Waits for a permit, queued under `key` (waiters of different keys take turns);
   * call the returned function exactly once to give it back.
   */
  async acquire(signal?: AbortSignal, key = ''): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.available > 0 && this.queued === 0) {
      this.available--;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const queue = this.queues.get(key);
        const index = queue?.indexOf(grant) ?? -1;
        if (queue && index !== -1) {
          queue.splice(index, 1);
          this.queued--;
          if (queue.length === 0) this.queues.delete(key);
        }
        reject(signal?.reason);
      };
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const queue = this.queues.get(key);
      if (queue) queue.push(grant);
      else this.queues.set(key, [grant]);
      this.queued++;
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

  /** The next waiter: the first of the key whose turn it is; that key then goes to the back. */
  private nextWaiter(): (() => void) | undefined {
    for (const [key, queue] of this.queues) {
      const next = queue.shift();
      this.queues.delete(key);
      if (queue.length > 0) this.queues.set(key, queue);
      if (next) {
        this.queued--;
        return next;
      }
    }
    return undefined;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Hand the permit straight to the next waiter so no late arrival overtakes it.
      const next = this.nextWaiter();
      if (next) next();
      else this.available++;
    };
  }
}
