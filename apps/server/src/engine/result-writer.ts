import { outcomeChars } from '../store/outcome-chars.js';
import type { ClaimedItem, CompletedItem, ItemOutcome, Store } from '../store/store.js';

export interface ResultWriterOptions {
  /** Most outcomes written in one transaction. */
  maxBatch: number;
  /**
   * Most characters (contents and indexed text) written in one transaction; an outcome larger than
   * this goes alone. Default {@link MAX_BATCH_CHARS}.
   */
  maxBatchChars?: number;
  /** Longest an outcome waits for others to share its transaction, in ms. */
  maxDelayMs: number;
}

/**
 * A SQLite transaction on the main thread holds it: about 35 ms per MB of content and indexed text
 * (the store writes a batch of 2 Mi characters or more on a thread of its own, see
 * `OFF_THREAD_BATCH_CHARS`). Ten 9 MB pages (three formats each) in one batch held every request for up to 1.9 s;
 * batches of at most 4 Mi characters, with a turn of the event loop between them, hold it for
 * one such page at most.
 */
export const MAX_BATCH_CHARS = 4 * 1024 * 1024;

interface Waiting extends CompletedItem {
  resolve: (written: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit of finished items: outcomes handed in within a short time
 * (at most `maxDelayMs`, at most `maxBatch` of them) are written by one
 * {@link Store.completeItems} call, one transaction. Each outcome's promise
 * settles only once its transaction has committed (or was refused), so
 * nothing counts as written before it is: a process killed meanwhile loses
 * only outcomes nobody was told about, whose items are still leased and run
 * again. Each item is still checked against its own lease by the store.
 *
 * A batch that fails for a reason other than the store being away is
 * written again one item at a time, so one bad outcome fails only itself.
 */
export class ResultWriter {
  private queue: Waiting[] = [];
  /** Characters the queued outcomes write. */
  private queuedChars = 0;
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Immediate | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Transactions written, and outcomes they held: what the batching achieved. */
  readonly counts = { batches: 0, outcomes: 0 };

  constructor(
    private readonly store: Store,
    private readonly options: ResultWriterOptions,
  ) {}

  /** Outcomes handed in and not yet written. */
  get pending(): number {
    return this.queue.length;
  }

  /** Writes `outcome` with others; resolves once committed: false when the item's lease was lost. */
  complete(item: ClaimedItem, outcome: ItemOutcome): Promise<boolean> {
    const chars = outcomeChars(outcome);
    const maxChars = this.options.maxBatchChars ?? MAX_BATCH_CHARS;
    // Too much to share a transaction with what waits: what waits goes first, in its own.
    if (this.queue.length > 0 && this.queuedChars + chars > maxChars) this.flush();
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ item, outcome, resolve, reject });
      this.queuedChars += chars;
      if (this.queue.length >= this.options.maxBatch || this.queuedChars >= maxChars) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.maxDelayMs);
    });
  }

  /**
   * Writes what waits at the end of this turn of the event loop rather than
   * after the delay: outcomes handed in during the same turn (pages the
   * converter answered together) still share the transaction.
   */
  flushSoon(): void {
    if (this.queue.length > 0) this.soon ??= setImmediate(() => void this.flush());
  }

  /** Writes what waits now, after the batch being written (if any); resolves once all of it is written. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.soon) {
      clearImmediate(this.soon);
      this.soon = null;
    }
    if (this.queue.length === 0) return this.writing;
    const batch = this.queue;
    this.queue = [];
    this.queuedChars = 0;
    // One transaction at a time: what arrives while one is written waits for the next. A turn of the
    // event loop between two of them lets requests in: chained promises alone would run them back to back.
    this.writing = this.writing.then(nextTurn).then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: Waiting[]): Promise<void> {
    try {
      const written = await this.store.completeItems(batch);
      this.counts.batches += 1;
      this.counts.outcomes += batch.length;
      for (const [i, waiting] of batch.entries()) waiting.resolve(written[i] ?? false);
      return;
    } catch (error) {
      if (batch.length === 1 || isUnavailable(error)) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
    }
    for (const waiting of batch) {
      try {
        const [written] = await this.store.completeItems([waiting]);
        this.counts.batches += 1;
        this.counts.outcomes += 1;
        waiting.resolve(written ?? false);
      } catch (error) {
        waiting.reject(error);
      }
    }
  }
}

/** Resolves in the event loop's next check phase, after the I/O waiting now. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The store is away for a moment (a database restart): every outcome of the batch waits and tries again. */
function isUnavailable(error: unknown): boolean {
  return (error as { code?: unknown })?.code === 'unavailable';
}
