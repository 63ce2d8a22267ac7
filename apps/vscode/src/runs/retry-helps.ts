import { isTerminalStatus } from '@webdata/core';
import { failureRemedy } from './failure-remedy.js';
import type { Result, Run } from './run-types.js';

/**
 * What is known of an ended run's failed pages: their errors as read (at most a page of the
 * service's list of them), and whether that is all of them; `unreadable` when they could not be read.
 */
export type FailedPages =
  | { results: Pick<Result, 'error' | 'http_status'>[]; complete: boolean }
  | 'unreadable';

/** The statuses the service retries a run from (`POST …/retry`); any other is refused (409). */
const RETRIED_FROM: ReadonlySet<string> = new Set(['incomplete', 'failed', 'cancelled']);

/**
 * Whether the Retry of an ended run's row can only be judged from its failed pages' errors: it
 * ended with failed pages and none cancelled. A cancelled page runs again and may well pass (it was
 * cut short, not refused), so a run with one needs nothing read.
 *
 * @example
 * ```ts
 * needsFailedPages({ status: 'failed', stats: { total: 2, failed: 2, cancelled: 0 } }); // true
 * needsFailedPages({ status: 'cancelled', stats: { total: 2, failed: 1, cancelled: 1 } }); // false
 * ```
 */
export function needsFailedPages(run: Pick<Run, 'status' | 'stats'>): boolean {
  if (!RETRIED_FROM.has(run.status) || !run.stats) return false;
  return (run.stats.failed ?? 0) > 0 && (run.stats.cancelled ?? 0) === 0;
}

/**
 * Whether retrying an ended run can help, as the service retries (`POST …/retry` queues its failed
 * and cancelled pages again, whatever they failed of) and as {@link failureRemedy} reads a failure:
 * a cancelled page may pass; a failed one only when its error may pass (a timeout, a server
 * error, a code this client does not know), not a missing page, a refused address, a page over the
 * size limits (`too_large`) or one that does not state what was asked, which fail the same way each
 * time. Every failed run row offered Retry, also where it could only fail again.
 *
 * `failed` is what is known of the failed pages (see {@link needsFailedPages}): until they are read
 * nothing is offered; when they could not be read, or not all were and none of those read may pass,
 * Retry is offered (it may help; the service decides).
 *
 * @example
 * ```ts
 * const run = { status: 'failed', stats: { total: 1, failed: 1, cancelled: 0 } };
 * retryHelps(run, { results: [{ error: { code: 'too_large' } }], complete: true }); // false
 * retryHelps(run, { results: [{ error: { code: 'timeout' } }], complete: true }); // true
 * ```
 */
export function retryHelps(run: Pick<Run, 'status' | 'stats'>, failed?: FailedPages): boolean {
  if (!RETRIED_FROM.has(run.status) || !isTerminalStatus(run.status)) return false;
  const stats = run.stats;
  // A server that sends no counts: nothing says retrying cannot help.
  if (!stats) return true;
  if ((stats.cancelled ?? 0) > 0) return true;
  // Nothing failed nor cancelled (a run cancelled after its last page): a retry would run nothing.
  if ((stats.failed ?? 0) === 0) return false;
  if (failed === undefined) return false;
  if (failed === 'unreadable') return true;
  if (failed.results.some((result) => failureRemedy(result).mayPass)) return true;
  return !failed.complete;
}
