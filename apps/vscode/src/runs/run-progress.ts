import { isTerminalStatus } from '@webdata/core';
import { countOf } from '../text/count-of.js';
import type { Run } from './run-types.js';

/**
 * Pages of a run that are done with, whatever the outcome: succeeded, failed or cancelled.
 *
 * @example
 * ```ts
 * pagesDone({ stats: { succeeded: 10, failed: 2, running: 3 } }); // 12
 * ```
 */
export function pagesDone(run: Pick<Run, 'stats'>): number {
  const stats = run.stats;
  return (stats?.succeeded ?? 0) + (stats?.failed ?? 0) + (stats?.cancelled ?? 0);
}

/**
 * How far a run in flight is: pages done of pages known (`12 of 40`), the total marked `~` while a
 * deep crawl is at work (it finds pages as it goes, so the total grows); `undefined` when the
 * service sends no counts. The run's snapshot counts the pages in progress and queued too
 * ({@link pendingText}): a row that showed only the succeeded pages (`0/40`) said nothing of a
 * crawl at work on them.
 *
 * @example
 * ```ts
 * progressCount({ status: 'running', type: 'deep-crawl', stats: { total: 40, succeeded: 11, failed: 1 } }); // '12 of ~40'
 * progressCount({ status: 'running', type: 'extract', stats: { total: 2, succeeded: 1 } }); // '1 of 2'
 * ```
 */
export function progressCount(run: Pick<Run, 'status' | 'type' | 'stats'>): string | undefined {
  const total = run.stats?.total;
  if (total === undefined) return undefined;
  const growing = run.type === 'deep-crawl' && !isTerminalStatus(run.status);
  return `${pagesDone(run)} of ${growing ? '~' : ''}${total}`;
}

/**
 * The pages a run is still at work on: `3 pages in progress, 25 queued`; `undefined` when none is
 * (or the service sends no counts).
 *
 * @example
 * ```ts
 * pendingText({ stats: { running: 1, queued: 0 } }); // '1 page in progress'
 * pendingText({ stats: { running: 0, queued: 4 } }); // '4 pages queued'
 * ```
 */
export function pendingText(run: Pick<Run, 'stats'>): string | undefined {
  const running = run.stats?.running ?? 0;
  const queued = run.stats?.queued ?? 0;
  if (running > 0 && queued > 0) return `${countOf(running, 'page')} in progress, ${queued} queued`;
  if (running > 0) return `${countOf(running, 'page')} in progress`;
  if (queued > 0) return `${countOf(queued, 'page')} queued`;
  return undefined;
}
