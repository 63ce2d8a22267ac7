import { JobKilledThreadError, ThreadPool } from '../thread-pool.js';
import type { FillInput, FillOutcome } from './fill-page.js';

/**
 * Heap limits of an extraction thread: a page whose DOM needs more kills only
 * its thread, and its extraction fails. It is not filled again on the main
 * thread, where it would hold every request the server is answering.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };

/** Where the default engine runs its fill step: inline, or on threads of its own. */
export interface PageFiller {
  fill(input: FillInput): Promise<FillOutcome>;
}

/**
 * The fill step on this thread. Its module (cheerio, ~100 ms of CPU to import, and the readers) is
 * loaded on the first page filled here, not at every server's start: a server fills on its threads.
 */
async function fillHere(input: FillInput): Promise<FillOutcome> {
  const { fillPage } = await import('./fill-page.js');
  return fillPage(input);
}

/** Runs the fill step on this thread (tests, tools, a server with no threads to spare). */
export const inlineFiller: PageFiller = { fill: fillHere };

/**
 * Runs the default engine's fill step (`fillPage`) on `threads` worker
 * threads (inline with 0). A page's facts and a large schema's filling take
 * 10–40 ms, and 60–200 ms while the code is still cold: on the main thread
 * that is a stall of every request the server is answering.
 */
export class ExtractionThreads implements PageFiller {
  private readonly threads: ThreadPool<FillInput, FillOutcome>;

  constructor(threads: number) {
    this.threads = new ThreadPool('fill-worker', import.meta.url, threads, THREAD_LIMITS, fillHere);
  }

  async fill(input: FillInput): Promise<FillOutcome> {
    // Only the fields the fill step reads cross to the thread (the input carries a signal, which cannot).
    const { url, html, schema, query, article } = input;
    try {
      return await this.threads.run({ url, html, schema, query, article });
    } catch (error) {
      if (!(error instanceof JobKilledThreadError)) throw error;
      const limit = THREAD_LIMITS.maxOldGenerationSizeMb;
      return {
        ok: false,
        message: `the page is too large to extract from within the ${limit} MB memory limit`,
      };
    }
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
