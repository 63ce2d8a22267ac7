import { BehaviorSubject, distinctUntilChanged, map, type Observable, type Subscription } from 'rxjs';
import type { ConnectionState } from './connection-state.js';

/** Where an outage stands, for the status bar item; `undefined` while the service answers. */
export interface Outage {
  /** When the service was found not to answer (ms since the epoch). */
  since: number;
  /** A check of `/healthz` is out now. */
  checking: boolean;
  /** When the next check is due (ms since the epoch); `undefined` while one is out. */
  nextCheckAt: number | undefined;
  /** Checks made in this outage so far. */
  checks: number;
}

export interface OutageWatchOptions {
  /** Whether the service answers now: `GET /healthz`, true on a 2xx. A rejection counts as no answer. */
  check: () => Promise<boolean>;
  /**
   * The service answers `/healthz` again: ask it for something with the key (the connection's
   * state follows, ending the outage or not) and refresh what the outage left stale.
   */
  confirm: () => Promise<void>;
  /** The first check, after the outage starts (ms); doubled after each check that finds no service. */
  firstDelayMs?: number;
  /** The longest wait between two checks (ms). */
  maxDelayMs?: number;
  /** Tells what the watch did (a check's outcome), for the log. */
  onCheck?: (answered: boolean, error?: unknown) => void;
}

export const FIRST_CHECK_MS = 2_000;
export const MAX_CHECK_MS = 30_000;

/**
 * While the connection is `unreachable`, checks whether the service is back:
 * `/healthz`, after 2 s, then 4, 8, 16 and every 30 s (backing off), until it
 * answers; then {@link OutageWatchOptions.confirm} asks the service with the
 * key, which moves the connection on (connected, or what else it finds).
 * Nothing is asked while the service answers: the Runs view's long polls
 * already tell when it stops. {@link checkNow} checks at once and starts the
 * back-off again (the status bar item's click).
 *
 * @example
 * ```ts
 * const watch = new OutageWatch(connection.state$, { check: () => healthz(url), confirm: () => listOne() });
 * watch.outage$.subscribe((outage) => (outage ? item.show() : item.hide()));
 * ```
 */
export class OutageWatch {
  readonly #options: Required<Omit<OutageWatchOptions, 'onCheck'>> & Pick<OutageWatchOptions, 'onCheck'>;
  readonly #outage = new BehaviorSubject<Outage | undefined>(undefined);
  readonly #subscription: Subscription;
  #delay: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped when an outage ends or a check is asked for now: a check out from before says nothing. */
  #generation = 0;

  /** The outage on every change (`undefined`: the service answers), starting with how it stands now. */
  readonly outage$: Observable<Outage | undefined> = this.#outage.asObservable();

  constructor(state$: Observable<ConnectionState>, options: OutageWatchOptions) {
    this.#options = { firstDelayMs: FIRST_CHECK_MS, maxDelayMs: MAX_CHECK_MS, ...options };
    this.#delay = this.#options.firstDelayMs;
    this.#subscription = state$
      .pipe(
        map((state) => state === 'unreachable'),
        distinctUntilChanged(),
      )
      .subscribe((down) => (down ? this.#start() : this.#stop()));
  }

  /** The outage now (`undefined` while the service answers). */
  get outage(): Outage | undefined {
    return this.#outage.value;
  }

  /** Checks at once (when the service is found not to answer) and backs off again from the first delay. */
  checkNow(): void {
    if (!this.outage) return;
    this.#delay = this.#options.firstDelayMs;
    this.#generation += 1;
    this.#clearTimer();
    void this.#check(this.#generation);
  }

  dispose(): void {
    this.#subscription.unsubscribe();
    this.#generation += 1;
    this.#clearTimer();
    this.#outage.complete();
  }

  #start(): void {
    this.#delay = this.#options.firstDelayMs;
    this.#generation += 1;
    this.#set({ since: Date.now(), checking: false, nextCheckAt: undefined, checks: 0 });
    this.#schedule(this.#generation);
  }

  #stop(): void {
    this.#generation += 1;
    this.#clearTimer();
    if (this.outage) this.#set(undefined);
  }

  #schedule(generation: number): void {
    const delay = this.#delay;
    this.#delay = Math.min(this.#delay * 2, this.#options.maxDelayMs);
    this.#set({ ...this.outage!, checking: false, nextCheckAt: Date.now() + delay });
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#check(generation);
    }, delay);
  }

  async #check(generation: number): Promise<void> {
    const outage = this.outage;
    if (!outage) return;
    this.#set({ ...outage, checking: true, nextCheckAt: undefined, checks: outage.checks + 1 });
    let answered = false;
    try {
      answered = await this.#options.check();
      this.#options.onCheck?.(answered);
    } catch (error) {
      this.#options.onCheck?.(false, error);
    }
    if (generation !== this.#generation) return;
    if (answered) {
      // The connection's state decides: connected (the outage ends), or still no answer.
      await this.#options.confirm().catch(() => undefined);
      if (generation !== this.#generation) return;
    }
    this.#schedule(generation);
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #set(outage: Outage | undefined): void {
    this.#outage.next(outage);
  }
}

/**
 * The service's health check beside its API: `/healthz` under the address set (which has no `/api/v1`).
 *
 * @example
 * ```ts
 * healthzUrl('http://127.0.0.1:8787/'); // 'http://127.0.0.1:8787/healthz'
 * ```
 */
export function healthzUrl(baseUrl: string): string {
  return `${baseUrl.trim().replace(/\/+$/, '')}/healthz`;
}

/** Whether the service at `baseUrl` answers its health check (2xx) within `timeoutMs`. */
export async function serviceAnswers(baseUrl: string, timeoutMs = 5_000): Promise<boolean> {
  const response = await fetch(healthzUrl(baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
  await response.body?.cancel();
  return response.ok;
}
