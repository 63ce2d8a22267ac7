/**
 * A word-index thread: builds the word indexes its WordIndexThreads posts to it (the backfill of
 * documents indexed before they existed), so the main thread neither lower-cases nor splits those
 * bodies. Each index's buffer is moved back, not copied.
 */
import { ownsItsBuffer, serveJobs } from '../thread-pool.js';
import { buildWordIndex } from './word-index.js';

serveJobs(buildWordIndex, (words) => (words && ownsItsBuffer(words) ? [words.buffer as ArrayBuffer] : []));
