import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../worker-thread.js';
import { type ConvertInput, convertFetched } from './convert-fetched.js';
import type { ConvertedPage } from './types.js';

/** A converter thread died (out of memory on a huge page, or a crash) with pages still in it. */
class ThreadDiedError extends Error {}

interface Pending {
  resolve: (page: ConvertedPage) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

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
  private readonly pool: Thread[] = [];
  private nextId = 0;
  private closed = false;

  constructor(private readonly threads: number) {}

  async convert(page: ConvertInput): Promise<ConvertedPage> {
    if (this.threads === 0 || this.closed) return convertFetched(page);
    const thread = this.leastBusy();
    const id = this.nextId++;
    try {
      return await new Promise<ConvertedPage>((resolve, reject) => {
        thread.pending.set(id, { resolve, reject });
        thread.worker.postMessage({
          id,
          page: { kind: page.kind, body: page.body, finalUrl: page.finalUrl, html: page.html },
        });
      });
    } catch (error) {
      if (!(error instanceof ThreadDiedError)) throw error;
      return convertFetched(page);
    }
  }

  private leastBusy(): Thread {
    while (this.pool.length < this.threads) this.pool.push(this.spawn());
    return this.pool.reduce((best, thread) => (thread.pending.size < best.pending.size ? thread : best));
  }

  private spawn(): Thread {
    const worker = startWorkerThread('convert-worker', import.meta.url, THREAD_LIMITS);
    const thread: Thread = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', (message: { id: number; converted?: ConvertedPage; error?: string }) => {
      const pending = thread.pending.get(message.id);
      thread.pending.delete(message.id);
      if (message.converted) pending?.resolve(message.converted);
      else pending?.reject(new Error(`page conversion failed: ${message.error}`));
    });
    const fail = (error: Error) => {
      for (const pending of thread.pending.values()) pending.reject(error);
      thread.pending.clear();
      const index = this.pool.indexOf(thread);
      if (index >= 0) this.pool.splice(index, 1);
    };
    worker.on('error', (error) => fail(new ThreadDiedError(error.message)));
    worker.on('exit', (code) => fail(new ThreadDiedError(`converter thread exited with code ${code}`)));
    return thread;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.pool.splice(0).map((thread) => thread.worker.terminate()));
  }
}
