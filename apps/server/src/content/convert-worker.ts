/**
 * A converter thread: converts the pages its ConverterPool posts to it, so
 * HTML parsing and Markdown conversion run beside the main thread's fetching,
 * storing and serving.
 */
import { serveJobs } from '../thread-pool.js';
import { convertFetched } from './convert-fetched.js';

serveJobs(convertFetched);
