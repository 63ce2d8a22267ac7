/**
 * The batch write thread (see batch-write-thread.ts): writes each batch it is sent with its own
 * connection to the SQLite file, in one transaction, by the store's own code, and answers once it
 * has committed.
 */
import { parentPort } from 'node:worker_threads';
import type { CompletedItem } from '../store.js';
import { LargeTextJoiner } from './batch-pieces.js';
import { type BatchWriteAnswer, type BatchWriteMessage, WRITE_THREAD_LOADED } from './batch-write-thread.js';
import { retryWhileBusy } from './busy-retry.js';
import { SqliteStore } from './sqlite-store.js';

const stores = new Map<string, SqliteStore>();

/** A screenshot crosses the thread boundary as a plain Uint8Array; the driver binds Buffers. */
function withBuffers(batch: CompletedItem[]): CompletedItem[] {
  for (const { outcome } of batch) {
    const png = outcome.screenshot as Uint8Array | undefined;
    if (png && !Buffer.isBuffer(png))
      outcome.screenshot = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  }
  return batch;
}

async function write(id: number, file: string, batch: CompletedItem[]): Promise<BatchWriteAnswer> {
  try {
    let store = stores.get(file);
    if (!store) {
      // Its own connection; it must not hand batches on to a thread of its own, and it never searches.
      store = new SqliteStore(file, { batchWriteThread: false, searchMirrorBytes: 0 });
      stores.set(file, store);
    }
    const opened = store;
    // As on the main thread: another connection holding the lock makes the write wait, then fail as unavailable.
    return { id, write: await retryWhileBusy(async () => opened.writeCompletedItems(withBuffers(batch))) };
  } catch (error) {
    const unavailable = (error as { code?: unknown })?.code === 'unavailable';
    return { id, error: { message: error instanceof Error ? error.message : String(error), unavailable } };
  }
}

/** The jobs whose pieces are arriving, by id. */
const arriving = new Map<number, { file: string; joiner: LargeTextJoiner }>();

// One batch at a time, in the order they are complete.
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (message: BatchWriteMessage) => {
  const job =
    'piece' in message
      ? arriving.get(message.id)
      : { file: message.file, joiner: new LargeTextJoiner(message.batch, message.texts) };
  if (!job) return;
  if ('piece' in message) job.joiner.add(message.piece);
  if (!job.joiner.done) {
    arriving.set(message.id, job);
    return;
  }
  arriving.delete(message.id);
  queue = queue.then(async () =>
    parentPort!.postMessage(await write(message.id, job.file, job.joiner.batch)),
  );
});
// Modules are evaluated before the script's body: by now every import is loaded.
parentPort!.postMessage(WRITE_THREAD_LOADED);
