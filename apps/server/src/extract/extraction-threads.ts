import { ThreadPool } from '../thread-pool.js';
import { type FillInput, type FillOutcome, fillPage } from './fill-page.js';

/**
 * Heap limits of an extraction thread: a page whose DOM needs more kills only
 * its thread, and that page is filled again on the main thread.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };

/** Where the default engine runs its fill step: inline, or on threads of its own. */
export interface PageFiller {
  fill(input: FillInput): Promise<FillOutcome>;
}

/** Runs the fill step on this thread (tests, tools, a server with no threads to spare). */
export const inlineFiller: PageFiller = { fill: async (input) => fillPage(input) };

/**
 * Runs the default engine's fill step ({@link fillPage}) on `threads` worker
 * threads (inline with 0). A page's facts and a large schema's filling take
 * 10–40 ms, and 60–200 ms while the code is still cold: on the main thread
 * that is a stall of every request the server is answering.
 */
export class ExtractionThreads implements PageFiller {
  private readonly threads: ThreadPool<FillInput, FillOutcome>;

  constructor(threads: number) {
    this.threads = new ThreadPool('fill-worker', import.meta.url, threads, THREAD_LIMITS, fillPage);
  }

  fill(input: FillInput): Promise<FillOutcome> {
    // Only the fields the fill step reads cross to the thread (the input carries a signal, which cannot).
    const { url, html, schema, query, article } = input;
    return this.threads.run({ url, html, schema, query, article });
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
