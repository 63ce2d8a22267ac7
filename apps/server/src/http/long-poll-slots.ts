import { ServiceError } from '../errors.js';

/**
 * Long polls (`?wait=`) one owner may have held at once; the next is refused with 429 until one ends.
 *
 * Why: every held poll is checked against the store on each change it waits for, and a change feed
 * without `ids` on each change of any run of any owner. One key holding 500 such polls (its rate
 * limit opens 600 in 30 s) made every page of another key's crawl cost 500 store reads: that
 * key's 1,500-page deep crawl took 10.4–11.2 s instead of 5.0–7.5 s, its `GET /runs/{id}` p50 20–23
 * ms instead of 6–7 (built server, 2026-11-27). A client watches many runs with one batched poll.
 */
export const MAX_HELD_LONG_POLLS_PER_OWNER = 16;

/** Counts the long polls each owner has held, in this process. */
export class LongPollSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly limit = MAX_HELD_LONG_POLLS_PER_OWNER) {}

  /**
   * Holds one of the owner's slots while `hold` runs; throws 429 `rate_limited` (Retry-After: 1)
   * when the owner already holds them all.
   */
  async during<T>(owner: string, hold: () => Promise<T>): Promise<T> {
    const count = this.held.get(owner) ?? 0;
    if (count >= this.limit) {
      throw new ServiceError(
        'rate_limited',
        `this key already holds ${this.limit} long polls (?wait=); watch many runs with one GET /runs?wait=&ids=`,
        { retryAfterSeconds: 1 },
      );
    }
    this.held.set(owner, count + 1);
    try {
      return await hold();
    } finally {
      const left = (this.held.get(owner) ?? 1) - 1;
      if (left > 0) this.held.set(owner, left);
      else this.held.delete(owner);
    }
  }
}
