/**
 * Waiters queued by key and served in turns: the next one is the first waiter
 * of the key whose turn it is, and that key then goes to the back; within a
 * key, in arrival order. The key is the owner whose work waits, so one owner
 * with many waiters (a large crawl) does not make another owner's one (a
 * single page) wait behind all of them. With one key it is first come, first
 * served.
 *
 * @example
 * ```ts
 * const queue = new TurnQueue<string>();
 * queue.push('a', 'a1'); queue.push('a', 'a2'); queue.push('b', 'b1');
 * [queue.shift(), queue.shift(), queue.shift()]; // ['a1', 'b1', 'a2']
 * ```
 */
export class TurnQueue<T> {
  /** Waiters by key, none empty; the map's order is the keys' turn order. */
  readonly #queues = new Map<string, T[]>();
  #size = 0;

  /** Waiters queued, of every key. */
  get size(): number {
    return this.#size;
  }

  /** Queues `waiter` last among `key`'s (a new key takes its turn after the keys already waiting). */
  push(key: string, waiter: T): void {
    const queue = this.#queues.get(key);
    if (queue) queue.push(waiter);
    else this.#queues.set(key, [waiter]);
    this.#size += 1;
  }

  /** Takes `waiter` out of `key`'s queue (an aborted wait); false when it is not queued there. */
  remove(key: string, waiter: T): boolean {
    const queue = this.#queues.get(key);
    const index = queue?.indexOf(waiter) ?? -1;
    if (!queue || index === -1) return false;
    queue.splice(index, 1);
    if (queue.length === 0) this.#queues.delete(key);
    this.#size -= 1;
    return true;
  }

  /** The waiter {@link shift} would take, left queued. */
  peek(): T | undefined {
    for (const queue of this.#queues.values()) return queue[0];
    return undefined;
  }

  /** Takes the next waiter: the first of the key whose turn it is, which key then goes to the back. */
  shift(): T | undefined {
    for (const [key, queue] of this.#queues) {
      const next = queue.shift() as T;
      this.#queues.delete(key);
      if (queue.length > 0) this.#queues.set(key, queue);
      this.#size -= 1;
      return next;
    }
    return undefined;
  }
}
