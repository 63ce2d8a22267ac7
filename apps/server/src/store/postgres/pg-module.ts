import type pg from 'pg';
import { requiredOnFirstUse } from '../../required-on-first-use.js';

/**
 * The `pg` driver, loaded when a PostgreSQL store first opens a connection
 * rather than at every server's start: a server on the embedded SQLite store
 * never needs it, and importing it costs 40–50 ms of CPU. Required
 * synchronously (it is a CommonJS package; its ES module entry re-exports
 * this same object), so the pool can still be made in a constructor.
 */
export const pgModule = requiredOnFirstUse<typeof pg>('pg');
