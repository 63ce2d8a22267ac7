/** Gives back a slot taken with {@link HostGate.acquire}; calling it twice is harmless. */
export type ReleaseSlot = () => void;

/** Host states kept before idle ones are swept. */
const SWEEP_AT = 1000;
/** Longer than any per-host delay (crawl-delay is capped at 10 s). */
const IDLE_FORGET_MS = 60_000;

interface Waiter {
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
  queue: Waiter[];
  timer: NodeJS.Timeout | undefined;
}

/**
 * Politeness per host: at most `concurrency` requests in flight to one host,
 * and at least a delay between two request starts to it. Waiters are served
 * first come, first served; a waiter whose signal aborts leaves the queue at
 * once with the signal's reason.
 */
export class HostGate {
  private readonly hosts = new Map<string, HostState>();

  constructor(private readonly concurrency: number) {
    if (!(concurrency >= 1)) throw new RangeError('concurrency must be at least 1');
  }

  /**
   * Waits for a slot to `host`, at least `delayMs` after the previous start.
   * Resolves with the function that gives the slot back. `onQueued` is called
   * (synchronously, before this returns) when the slot is not free at once:
   * the caller then waits for the host's turn (its concurrency or its delay).
   */
  acquire(host: string, delayMs = 0, signal?: AbortSignal, onQueued?: () => void): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const state = this.stateOf(host);
    let granted = false;
    const slot = new Promise<ReleaseSlot>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, delayMs, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const index = state.queue.indexOf(waiter);
          if (index !== -1) state.queue.splice(index, 1);
          reject(signal.reason);
          this.pump(host, state);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      state.queue.push(waiter);
      this.pump(host, state);
      granted = !state.queue.includes(waiter);
    });
    if (!granted) onQueued?.();
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
      state = { active: 0, lastStart: Number.NEGATIVE_INFINITY, queue: [], timer: undefined };
      this.hosts.set(host, state);
    }
    return state;
  }

  private pump(host: string, state: HostState): void {
    while (state.queue.length > 0 && state.active < this.concurrency) {
      const next = state.queue[0]!;
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
      if (state.active === 0 && state.queue.length === 0 && !state.timer && state.lastStart < cutoff) {
        this.hosts.delete(host);
      }
    }
  }
}
