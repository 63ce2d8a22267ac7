import type { FetchedPage } from '../fetch/types.js';
import { ThreadPool } from '../thread-pool.js';
import { type ConvertInput, convertFetched, convertInput } from './convert-fetched.js';
import type { ConvertedPage } from './types.js';

/**
 * Heap limits of a converter thread. Without them V8 lets a busy thread's heap
 * grow to hundreds of MB between collections; a page too big for them kills
 * only its thread, and that page is converted again on the main thread.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };

/**
 * Converts pages on `threads` worker threads (started on first use, replaced
 * if one dies), least busy first; with 0 threads it converts inline. Page
 * conversion is the largest CPU cost of a crawl, and the main thread has the
 * fetching, the store and the API to serve.
 */
export class ConverterPool {
  private readonly threads: ThreadPool<ConvertInput, ConvertedPage>;

  constructor(threads: number) {
    this.threads = new ThreadPool('convert-worker', import.meta.url, threads, THREAD_LIMITS, convertFetched);
  }

  /** Converts a fetched page; `html: false` when its content is not wanted as HTML. */
  convert(
    page: Pick<FetchedPage, 'kind' | 'finalUrl' | 'body' | 'raw'>,
    html = true,
  ): Promise<ConvertedPage> {
    // Only the fields conversion reads cross to the thread: the undecoded bytes when the page has them.
    return this.threads.run(convertInput(page, html));
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
