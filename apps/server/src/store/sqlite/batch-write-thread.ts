import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../worker-thread.js';
import type { KnownUrlKey } from '../known-url-keys.js';
import type { CompletedItem } from '../store.js';
import { storeUnavailable } from '../unavailable.js';
import { type LargeText, splitLargeTexts } from './batch-pieces.js';

/** What a committed batch changed in one run, for the in-memory caches of the connection that did not write it. */
export interface CommittedRun {
  runId: string;
  /** URL keys the run's rows hold now (see `KnownUrlKeys`). */
  keys: KnownUrlKey[];
  /** Whether the batch settled the run. */
  settled: boolean;
}

/** A batch's transaction, committed: each outcome written (false: its lease was lost), and its runs. */
export interface BatchWrite {
  written: boolean[];
  runs: CommittedRun[];
}

/**
 * The messages of one job of the write thread: first the database file and the batch without its
 * large texts (plain data: no callbacks cross), then their pieces, one a message.
 */
export type BatchWriteMessage =
  | { id: number; file: string; batch: CompletedItem[]; texts: LargeText[] }
  | { id: number; piece: string };

/** What the thread posts once its script, and the store's modules, are loaded. */
export const WRITE_THREAD_LOADED = 'loaded';

/** The write thread's answer: the committed write, or why it failed. */
export type BatchWriteAnswer =
  | { id: number; write: BatchWrite }
  | { id: number; error: { message: string; unavailable: boolean } };

/**
 * V8 heap of the write thread: a batch arrives as a copy (a 9 MB page's contents in three formats
 * and its indexed text are ~18 M characters), and the statements copy each value once more.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 };

/**
 * Writes large batches of finished pages on a thread of its own, with its own connection to the
 * same SQLite file (WAL: one writer at a time, readers never wait), so that the main thread keeps
 * answering requests while a page's contents and search rows are written. Each batch is still one
 * transaction, run by the same code as on the main thread (`SqliteStore.writeCompletedItems`): a
 * process killed during it loses the whole batch and nothing else, exactly as before. Its promise
 * settles once the transaction has committed. Batches are written one after another (the result
 * writer sends one at a time); the thread starts on the first and is replaced if it dies.
 */
export class BatchWriteThread {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { worker: Worker; resolve: (write: BatchWrite) => void; reject: (error: Error) => void }
  >();
  /** Settles once a thread has loaded its script (or died). */
  private readonly loaded = new WeakMap<Worker, Promise<void>>();
  /** The writes in flight, awaited by {@link close}. */
  private readonly writes = new Set<Promise<BatchWrite>>();

  constructor(private readonly file: string) {}

  /**
   * Writes `batch` in one transaction on the thread; resolves once it has committed. Its large
   * texts cross one piece a turn of the event loop (see `PIECE_CHARS`): copied in one message,
   * a 9 MB page's would hold the main thread as long as a third of its write.
   */
  write(batch: readonly CompletedItem[]): Promise<BatchWrite> {
    const id = this.nextId++;
    const written = new Promise<BatchWrite>((resolve, reject) => {
      const worker = this.started();
      this.pending.set(id, { worker, resolve, reject });
      void this.send(worker, id, batch).catch((error: unknown) => {
        this.pending.delete(id);
        reject(error);
      });
    });
    this.writes.add(written);
    const forget = () => this.writes.delete(written);
    written.then(forget, forget);
    return written;
  }

  private async send(worker: Worker, id: number, batch: readonly CompletedItem[]): Promise<void> {
    // Only the data crosses: a result writer's entries also carry their promise's callbacks.
    const { batch: rest, texts, pieces } = splitLargeTexts(batch);
    // Sent to a thread still loading, the pieces would wait in its queue, a copy of them all.
    await this.loaded.get(worker);
    for (let i = -1; i < pieces.length; i += 1) {
      await nextTurn();
      // A thread that died meanwhile failed the job (what was sent went with it).
      if (this.worker !== worker || !this.pending.has(id)) return;
      const message: BatchWriteMessage =
        i < 0 ? { id, file: this.file, batch: rest, texts } : { id, piece: pieces[i]! };
      worker.postMessage(message);
    }
  }

  /** Waits for the batches in flight (committed or failed), then stops the thread. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.writes]);
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorkerThread('batch-write-worker', import.meta.url, THREAD_LIMITS);
    // Idle, the thread does not keep the process alive; a write in flight is awaited by its caller.
    worker.unref();
    let settleLoaded!: () => void;
    this.loaded.set(worker, new Promise<void>((resolve) => (settleLoaded = resolve)));
    worker.on('message', (answer: BatchWriteAnswer | typeof WRITE_THREAD_LOADED) => {
      if (answer === WRITE_THREAD_LOADED) return settleLoaded();
      const pending = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      // Idle: the thread stops, and its heap (the copies of the batch, kept until V8 collects them)
      // goes with it. Large batches are rare; starting a thread is cheaper than keeping its memory.
      if (this.worker === worker && ![...this.pending.values()].some((job) => job.worker === worker)) {
        this.worker = null;
        void worker.terminate();
      }
      if (!pending) return;
      if ('write' in answer) return pending.resolve(answer.write);
      const cause = new Error(answer.error.message);
      pending.reject(answer.error.unavailable ? storeUnavailable(cause) : cause);
    });
    const died = (reason: string) => {
      settleLoaded();
      if (this.worker === worker) this.worker = null;
      // Its transaction, if one was open, was never committed: SQLite leaves nothing of it.
      for (const [id, job] of this.pending) {
        if (job.worker !== worker) continue;
        this.pending.delete(id);
        job.reject(new Error(`the batch write thread stopped: ${reason}`));
      }
    };
    worker.on('error', (error) => died(error.message));
    worker.on('exit', (code) => died(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }
}

/** Resolves in the event loop's next check phase, after the I/O waiting now. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
