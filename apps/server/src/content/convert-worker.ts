/**
 * A converter thread: converts the pages its ConverterPool posts to it, so
 * HTML parsing and Markdown conversion run beside the main thread's fetching,
 * storing and serving.
 */
import { parentPort } from 'node:worker_threads';
import { type ConvertInput, convertFetched } from './convert-fetched.js';

parentPort!.on('message', ({ id, page }: { id: number; page: ConvertInput }) => {
  try {
    parentPort!.postMessage({ id, converted: convertFetched(page) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
