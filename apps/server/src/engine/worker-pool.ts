import { setTimeout as sleep } from 'node:timers/promises';
import type { ClaimedItem, ItemOutcome, Store } from '../store/store.js';
import { ResultWriter } from './result-writer.js';

/** Turns one claimed item into its outcome; must honour `signal` (cancel, delete, shutdown). */
export type ItemProcessor = (item: ClaimedItem, signal: AbortSignal) => Promise<ItemOutcome>;

export interface WorkerPoolOptions {
  workerId: string;
  concurrency: number;
  /** How long a claimed item stays leased without renewal; renewed every third of it. */
  leaseMs: number;
  /** How often an idle pool looks for work written by other processes. */
  idlePollMs: number;
  /** A run changed (an item of it was claimed or finished): long polls answer at once. */
  onRunChanged?: ((runId: string) => void) | undefined;
  onError?: ((error: unknown) => void) | undefined;
  /**
   * Group commit: how long a finished item waits for others to share its
   * transaction (ms; written at once when no other item is in flight).
   */
  commitDelayMs?: number | undefined;
}

/** Default of {@link WorkerPoolOptions.commitDelayMs}: short beside a page's own time, long enough to share. */
export const COMMIT_DELAY_MS = 25;

interface ActiveItem {
  item: ClaimedItem;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Claims work items from the store's durable queue and processes up to
 * `concurrency` at once. An item is leased while it is processed; a worker
 * that dies leaves a lease that expires (or, embedded, is released at the
 * next start), so the item runs again and its result is written exactly once.
 */
export class WorkerPool {
  private readonly active = new Map<string, ActiveItem>();
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** Finished items whose outcome waits for its transaction. */
  private committing = 0;
  /** Writes finished items' outcomes several to a transaction. */
  readonly writer: ResultWriter;

  constructor(
    private readonly store: Store,
    private readonly process: ItemProcessor,
    private readonly options: WorkerPoolOptions,
  ) {
    this.writer = new ResultWriter(store, {
      maxBatch: options.concurrency,
      maxDelayMs: options.commitDelayMs ?? COMMIT_DELAY_MS,
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** There may be new work: look now rather than at the next idle poll. */
  poke(): void {
    this.wake?.();
  }

  /** Aborts the in-flight items of a run (cancel, delete). */
  abortRun(runId: string): void {
    for (const active of this.active.values()) {
      if (active.item.runId === runId) active.controller.abort(new Error('run cancelled'));
    }
  }

  get inFlight(): number {
    return this.active.size;
  }

  /** Fewest free slots worth a claim while other items are in flight. */
  private get claimAtLeast(): number {
    return Math.max(1, Math.floor(this.options.concurrency / 4));
  }

  /** Items being fetched and converted (in flight and not waiting for their write). */
  private get processing(): number {
    return this.active.size - this.committing;
  }

  /**
   * Stops claiming; lets in-flight items finish for up to `drainMs`, then
   * aborts the rest and puts them back in the queue for the next start.
   */
  async stop(drainMs: number): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake?.();
    await this.loop;
    const all = Promise.all([...this.active.values()].map((a) => a.done));
    const drained = await Promise.race([all.then(() => true), sleep(drainMs).then(() => false)]);
    if (!drained) {
      const left = [...this.active.values()];
      for (const active of left) active.controller.abort(new Error('shutting down'));
      await Promise.all(left.map((a) => a.done));
    }
    await this.writer.flush();
  }

  private async run(): Promise<void> {
    while (this.running) {
      // An item waiting for its transaction holds its lease but no longer a slot: the next page starts.
      const free = this.options.concurrency - this.processing;
      let claimed: ClaimedItem[] = [];
      // A claim is a write transaction of its own: slots are filled a few at a time (one claim for a
      // quarter of the pool), except when nothing is in flight (a new run, the end of a crawl).
      if (free > 0 && (free >= this.claimAtLeast || this.processing === 0)) {
        try {
          claimed = await this.store.claimItems(this.options.workerId, free, this.options.leaseMs);
        } catch (error) {
          this.options.onError?.(error);
        }
      }
      for (const item of claimed) this.begin(item);
      for (const runId of new Set(claimed.map((item) => item.runId))) this.options.onRunChanged?.(runId);
      if (claimed.length === 0 || this.options.concurrency - this.processing < this.claimAtLeast) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.idlePollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    }
  }

  /**
   * Writes an outcome, trying again while the store is away for a moment (a
   * database restart) and the lease may still be held: the work is not lost
   * to a short outage. Past the lease the store refuses the write anyway, and
   * the item runs again elsewhere.
   */
  private async complete(item: ClaimedItem, outcome: ItemOutcome, signal: AbortSignal): Promise<void> {
    const deadline = Date.now() + this.options.leaseMs;
    for (;;) {
      this.committing += 1;
      try {
        const written = this.writer.complete(item, outcome);
        // No other item could join the batch (all in flight wait for a write): no reason to wait.
        if (this.processing === 0) void this.writer.flush();
        else this.wake?.();
        await written;
        return;
      } catch (error) {
        if (!isUnavailable(error) || Date.now() > deadline || signal.aborted) throw error;
        await sleep(COMPLETE_RETRY_MS);
      } finally {
        this.committing -= 1;
      }
    }
  }

  private begin(item: ClaimedItem): void {
    const controller = new AbortController();
    // The heartbeat: a lease found lost (cancelled, deleted, or reaped after a stall) stops the work at once.
    const renew = setInterval(() => {
      this.store.renewLease(item, this.options.leaseMs).then(
        (held) => held || controller.abort(new Error('lease lost')),
        (error) => this.options.onError?.(error),
      );
    }, this.options.leaseMs / 3);
    const done = (async () => {
      try {
        const outcome = await this.process(item, controller.signal);
        if (controller.signal.aborted) await this.store.releaseItem(item);
        else await this.complete(item, outcome, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) {
          // Shutdown puts the item back; a cancel or delete already took the lease, so this changes nothing.
          await this.store.releaseItem(item).catch((e) => this.options.onError?.(e));
        } else if (isUnavailable(error)) {
          // The store stayed away past the lease: the item goes back to the queue when its lease expires.
          this.options.onError?.(error);
        } else {
          // A processor turns page problems into failed outcomes; reaching here is a bug, recorded on the item.
          this.options.onError?.(error);
          await this.store.completeItem(item, internalFailure()).catch((e) => this.options.onError?.(e));
        }
      } finally {
        clearInterval(renew);
        this.active.delete(item.itemId);
        this.options.onRunChanged?.(item.runId);
        this.wake?.();
      }
    })();
    this.active.set(item.itemId, { item, controller, done });
  }
}

/** Pause between tries of a result write while the store is away. */
const COMPLETE_RETRY_MS = 500;

function isUnavailable(error: unknown): boolean {
  return (error as { code?: unknown })?.code === 'unavailable';
}

function internalFailure(): ItemOutcome {
  return {
    status: 'failed',
    result: {
      final_url: null,
      title: null,
      http_status: null,
      content_type: null,
      data: null,
      error: { code: 'internal', message: 'an internal error stopped this page; it is logged on the server' },
      has_screenshot: false,
      screenshot_error: null,
    },
    contents: {},
  };
}
