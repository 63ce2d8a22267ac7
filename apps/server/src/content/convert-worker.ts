/**
 * A converter thread: converts the pages its ConverterPool posts to it, so
 * HTML parsing and Markdown conversion run beside the main thread's fetching,
 * storing and serving. Its code is warmed up on built-in pages before it
 * says it is loaded, so a crawl's first pages are not converted cold.
 */
import { serveJobs } from '../thread-pool.js';
import { convertFetched, transferOfConverted } from './convert-fetched.js';
import { warmUpConverter } from './converter-warm-up.js';

warmUpConverter();
serveJobs(convertFetched, transferOfConverted);
