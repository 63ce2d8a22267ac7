import { ThreadPool } from '../thread-pool.js';
import { buildWordIndex } from './word-index.js';

/** Heap limits of the thread: a body's analysed part is at most 1 M characters (2 MB, and its lower-cased copy). */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

/**
 * Builds word indexes (`buildWordIndex`) on a thread of its own, started on first use, for the
 * backfill of documents indexed before word indexes existed; with `threads` 0 (a machine of one
 * core), inline. A page being crawled gets its index on its converter thread instead.
 */
export class WordIndexThreads {
  private readonly threads: ThreadPool<string, Uint8Array | null>;

  constructor(threads: number) {
    this.threads = new ThreadPool<string, Uint8Array | null>(
      'word-index-worker',
      import.meta.url,
      threads,
      THREAD_LIMITS,
      buildWordIndex,
    );
  }

  /** The word index of `text` (its analysed part), or null when it can have none. */
  build(text: string): Promise<Uint8Array | null> {
    return this.threads.run(text);
  }

  /** Stops the thread (a later `build` runs inline). */
  close(): Promise<void> {
    return this.threads.close();
  }
}
