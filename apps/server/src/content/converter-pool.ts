import { PageError } from '../errors.js';
import { JobKilledThreadError, ownsItsBuffer, ThreadPool } from '../thread-pool.js';
import { type ConvertInput, convertFetched } from './convert-fetched.js';
import type { ConvertedPage } from './types.js';

/**
 * Heap limits of a converter thread. Without them V8 lets a busy thread's heap
 * grow to hundreds of MB between collections; a page too big for them kills
 * only its thread and fails as `too_large`. It is not converted again on the
 * main thread: a 5.6 MB page of 200,000 links held every request there for 2 s.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };

/**
 * Converts pages on `threads` worker threads (started by `start`, or on first
 * use; replaced if one dies), least busy first; with 0 threads it converts inline. Page
 * conversion is the largest CPU cost of a crawl, and the main thread has the
 * fetching, the store and the API to serve.
 */
export class ConverterPool {
  private readonly threads: ThreadPool<ConvertInput, ConvertedPage>;

  constructor(threads: number) {
    this.threads = new ThreadPool('convert-worker', import.meta.url, threads, THREAD_LIMITS, convertFetched);
  }

  /** Starts the threads and loads the converter in them; resolves when they can take a page. */
  start(): Promise<void> {
    return this.threads.start();
  }

  /** Converter threads running with the converter loaded. */
  get loadedThreads(): number {
    return this.threads.loadedThreads;
  }

  /**
   * Converts a page; rejects with a `too_large` {@link PageError} when the page killed its thread.
   * A body given as bytes (`FetchedPage.takeEncodedBody`) is decoded on the thread, and its bytes
   * are moved there rather than copied when they are a buffer of their own and the thread can start
   * at once (see {@link ThreadPool.run}): a 9 MB page's body was decoded on the main thread and
   * its text copied to the thread (structured clone), holding the event loop for both.
   */
  async convert(page: ConvertInput): Promise<ConvertedPage> {
    const body = page.body;
    const transfer =
      typeof body !== 'string' && ownsItsBuffer(body.bytes) ? [body.bytes.buffer as ArrayBuffer] : [];
    try {
      // Only the fields conversion reads cross to the thread (a fetched page carries more).
      return await this.threads.run(
        { kind: page.kind, body, finalUrl: page.finalUrl, html: page.html, words: page.words },
        transfer,
      );
    } catch (error) {
      if (!(error instanceof JobKilledThreadError)) throw error;
      throw new PageError(
        'too_large',
        `the page is too large to convert within the converter's ${THREAD_LIMITS.maxOldGenerationSizeMb} MB memory limit`,
        { cause: error },
      );
    }
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
