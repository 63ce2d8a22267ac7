import { LIMITS } from '@webdata/contract';
import { AbortError } from '../errors.js';

/**
 * How many requests one client sends: a token bucket (`perSecond`, refilled
 * continuously, holding at most `burst`) and a cap on requests in flight at
 * once. Long polls hold a connection while the server waits, so they take a
 * token but no slot. The defaults sit just under the server's default rate
 * (20 requests a second per key, bursts of 40) so that one client alone is
 * never refused; 429s and `Retry-After` slow it down further.
 *
 * @example
 * ```ts
 * createClient({ baseUrl, apiKey, budget: { perSecond: 5, burst: 10, concurrent: 4 } });
 * ```
 */
export interface RequestBudget {
  /** Requests a second, on average (default 18: under the server's default of 20 per key). */
  perSecond: number;
  /** Requests that may go at once after a quiet spell (default 36: under the server's 40). */
  burst: number;
  /** Requests in flight at once, long polls not counted (default 16). */
  concurrent: number;
}

export const DEFAULT_BUDGET: RequestBudget = {
  perSecond: LIMITS.rateLimitPerSecond * 0.9,
  burst: LIMITS.rateLimitBurst * 0.9,
  concurrent: 16,
};

interface Waiter {
  holdsSlot: boolean;
  grant: (release: () => void) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * Paces one client's requests within its {@link RequestBudget}, first come
 * first served. A 429 means the server's bucket for this key is empty (another
 * program may share the key): the pacer empties its own, sends nothing until
 * `Retry-After` has passed, and lowers its rate by a third; each answer that
 * is not a 429 then wins back a little of the rate, up to the budget. So many
 * callers retrying at once come back one by one at the rate, not together.
 */
export class RequestPacer {
  readonly #budget: RequestBudget;
  readonly #now: () => number;
  #rate: number;
  #tokens: number;
  #refilledAt: number;
  #inFlight = 0;
  #pausedUntil = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #queue: Waiter[] = [];
  /** Requests sent, and 429 answers seen, by this pacer (for benchmarks and diagnostics). */
  readonly counts = { granted: 0, rateLimited: 0 };

  constructor(budget: Partial<RequestBudget> = {}, now: () => number = () => performance.now()) {
    this.#budget = { ...DEFAULT_BUDGET, ...budget };
    if (!(this.#budget.perSecond > 0) || !(this.#budget.burst >= 1) || !(this.#budget.concurrent >= 1)) {
      throw new TypeError('createClient: budget needs perSecond > 0, burst >= 1 and concurrent >= 1');
    }
    this.#now = now;
    this.#rate = this.#budget.perSecond;
    this.#tokens = this.#budget.burst;
    this.#refilledAt = now();
  }

  /** The rate the pacer currently allows, in requests a second. */
  get rate(): number {
    return this.#rate;
  }

  /** Requests waiting for their turn. */
  get waiting(): number {
    return this.#queue.length;
  }

  /**
   * Resolves, in turn, when a request may be sent, with the function to call
   * once its answer is in. Aborting `signal` while waiting rejects with
   * {@link AbortError} and gives the turn away.
   */
  acquire(options: { holdsSlot?: boolean; signal?: AbortSignal | undefined } = {}): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(new AbortError('the request was aborted while waiting for its turn'));
        return;
      }
      const waiter: Waiter = {
        holdsSlot: options.holdsSlot ?? true,
        grant: resolve,
        reject,
        signal: options.signal,
        onAbort: () => {
          const index = this.#queue.indexOf(waiter);
          if (index >= 0) this.#queue.splice(index, 1);
          reject(new AbortError('the request was aborted while waiting for its turn'));
          this.#pump();
        },
      };
      options.signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** The server refused a request for the key's rate: hold everything until `retryAfterMs`, then go slower. */
  onRateLimited(retryAfterMs: number | undefined): void {
    this.counts.rateLimited++;
    this.#refill();
    this.#tokens = 0;
    this.#rate = Math.max(this.#budget.perSecond / 20, this.#rate * (2 / 3));
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + Math.min(retryAfterMs ?? 1_000, 60_000));
    this.#pump();
  }

  /** An answer that was not a 429: the rate creeps back towards the budget. */
  onAnswered(): void {
    if (this.#rate < this.#budget.perSecond) {
      this.#rate = Math.min(this.#budget.perSecond, this.#rate + this.#budget.perSecond / 50);
    }
  }

  #refill(): void {
    const time = this.#now();
    this.#tokens = Math.min(
      this.#budget.burst,
      this.#tokens + ((time - this.#refilledAt) / 1000) * this.#rate,
    );
    this.#refilledAt = time;
  }

  #pump(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#refill();
    while (this.#queue.length > 0) {
      const waitMs = this.#pausedUntil - this.#now();
      if (waitMs > 0) {
        this.#wake(waitMs);
        return;
      }
      if (this.#tokens < 1) {
        this.#wake(((1 - this.#tokens) / this.#rate) * 1000);
        return;
      }
      // The first waiter that fits: a long poll need not wait behind requests waiting for a slot.
      const index = this.#queue.findIndex((w) => !w.holdsSlot || this.#inFlight < this.#budget.concurrent);
      if (index < 0) return; // a release pumps again
      const [waiter] = this.#queue.splice(index, 1) as [Waiter];
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.#tokens -= 1;
      this.counts.granted++;
      let released = false;
      if (waiter.holdsSlot) this.#inFlight++;
      waiter.grant(() => {
        if (released) return;
        released = true;
        if (waiter.holdsSlot) this.#inFlight--;
        this.#pump();
      });
    }
  }

  #wake(ms: number): void {
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#pump();
      },
      Math.max(1, Math.ceil(ms)),
    );
  }
}
