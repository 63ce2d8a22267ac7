import { TurnQueue } from '../turn-queue.js';

/** Gives back a slot taken with {@link HostGate.acquire}; calling it twice is harmless. */
export type ReleaseSlot = () => void;

/** Host states kept before idle ones are swept. */
const SWEEP_AT = 1000;
/** Longer than any per-host delay (crawl-delay is capped at 10 s). */
const IDLE_FORGET_MS = 60_000;

/** Per-call options of {@link HostGate.acquire}. */
export interface HostSlotOptions {
  /** The least time since the host's previous request start (ms; default 0). */
  delayMs?: number | undefined;
  /** Aborts the wait: the waiter leaves the queue at once, rejected with the signal's reason. */
  signal?: AbortSignal | undefined;
  /**
   * Called (synchronously, before {@link HostGate.acquire} returns) when the slot is not free at
   * once: the caller then waits for the host's turn (its concurrency or its delay).
   */
  onQueued?: (() => void) | undefined;
  /** Whose request waits (the owner): waiters of different keys take turns at a host (default ''). */
  key?: string | undefined;
}

interface Waiter {
  key: string;
  /** Given its slot: no longer queued. */
  served: boolean;
  resolve: (release: ReleaseSlot) => void;
  reject: (reason: unknown) => void;
  delayMs: number;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

interface HostState {
  active: number;
  /** When the last request to this host started (ms, monotonic). */
  lastStart: number;
  queue: TurnQueue<Waiter>;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Politeness per host: at most `concurrency` requests in flight to one host,
 * and at least a delay between two request starts to it. A host's waiters are
 * served by key (the owner whose page waits) in a {@link TurnQueue}: one
 * owner's large crawl does not make another owner's page on the same host wait
 * behind all its pages, which with a crawl-delay of seconds is minutes. A
 * waiter whose signal aborts leaves the queue at once with the signal's reason.
 */
export class HostGate {
  private readonly hosts = new Map<string, HostState>();

  constructor(private readonly concurrency: number) {
    if (!(concurrency >= 1)) throw new RangeError('concurrency must be at least 1');
  }

  /**
   * Waits for a slot to `host`, at least `options.delayMs` after the previous start.
   * Resolves with the function that gives the slot back.
   */
  acquire(host: string, options: HostSlotOptions = {}): Promise<ReleaseSlot> {
    const { delayMs = 0, signal, onQueued, key = '' } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const state = this.stateOf(host);
    let waiter: Waiter | undefined;
    const slot = new Promise<ReleaseSlot>((resolve, reject) => {
      const queued: Waiter = { key, served: false, resolve, reject, delayMs, signal, onAbort: undefined };
      waiter = queued;
      if (signal) {
        queued.onAbort = () => {
          state.queue.remove(key, queued);
          reject(signal.reason);
          this.pump(host, state);
        };
        signal.addEventListener('abort', queued.onAbort, { once: true });
      }
      state.queue.push(key, queued);
      this.pump(host, state);
    });
    if (!waiter?.served) onQueued?.();
    return slot;
  }

  /** Requests in flight to a host now (for tests and metrics). */
  inFlight(host: string): number {
    return this.hosts.get(host)?.active ?? 0;
  }

  private stateOf(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      if (this.hosts.size >= SWEEP_AT) this.sweep();
      state = { active: 0, lastStart: Number.NEGATIVE_INFINITY, queue: new TurnQueue(), timer: undefined };
      this.hosts.set(host, state);
    }
    return state;
  }

  private pump(host: string, state: HostState): void {
    while (state.queue.size > 0 && state.active < this.concurrency) {
      const next = state.queue.peek()!;
      const wait = state.lastStart + next.delayMs - performance.now();
      if (wait > 0) {
        if (!state.timer) {
          state.timer = setTimeout(() => {
            state.timer = undefined;
            this.pump(host, state);
          }, Math.ceil(wait));
        }
        return;
      }
      state.queue.shift();
      next.served = true;
      if (next.signal && next.onAbort) next.signal.removeEventListener('abort', next.onAbort);
      state.active += 1;
      state.lastStart = performance.now();
      let released = false;
      next.resolve(() => {
        if (released) return;
        released = true;
        state.active -= 1;
        this.pump(host, state);
      });
    }
  }

  /** Forgets hosts idle for longer than any delay, so a long crawl over many hosts does not grow the map forever. */
  private sweep(): void {
    const cutoff = performance.now() - IDLE_FORGET_MS;
    for (const [host, state] of this.hosts) {
      if (state.active === 0 && state.queue.size === 0 && !state.timer && state.lastStart < cutoff) {
        this.hosts.delete(host);
      }
    }
  }
}
