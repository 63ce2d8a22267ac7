/**
 * An extraction thread: runs the default engine's fill step for the pages its
 * ExtractionThreads posts to it, so reading a page's facts and filling a
 * large schema never hold the main thread's event loop.
 */
import { serveJobs } from '../thread-pool.js';
import { fillPage } from './fill-page.js';

serveJobs(fillPage);
