import { isTerminalStatus } from '@webdata/core';
import { countOf } from '../text/count-of.js';
import { shortUrl } from '../tree/describe-run.js';
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

/** What a run is doing, as a verb for the progress notification's title. */
const DOING: Record<string, string> = {
  extract: 'Extracting from',
  crawl: 'Crawling',
  'deep-crawl': 'Deep crawling',
};

/**
 * The title of a followed run's progress notification: what it is doing and where
 * (`Crawling docs.example`, `Extracting from shop.example/p/lamp +2`, `Deep crawling docs.example/3`),
 * `again` for a retry. VS Code shows it before the message ({@link progressMessage}), and names the
 * extension as the notification's source: the title was `Web Data: Extraction from 2 URLs`, which
 * said neither what was being done nor where.
 *
 * @example
 * ```ts
 * progressTitle({ type: 'crawl', urls: ['https://www.example.org/'], params: {} }); // 'Crawling example.org'
 * progressTitle({ type: 'extract', urls: ['https://a.example/x', 'https://a.example/y'], params: {} }, true);
 * // 'Extracting from a.example/x +1 again'
 * ```
 */
export function progressTitle(run: Pick<Run, 'type' | 'urls' | 'params'>, again = false): string {
  const doing = DOING[run.type] ?? `Running ${run.type}`;
  const start = run.urls[0] ?? (typeof run.params?.url === 'string' ? run.params.url : undefined);
  const more = run.urls.length > 1 ? ` +${run.urls.length - 1}` : '';
  const where = start ? ` ${shortUrl(start)}${more}` : '';
  return `${doing}${where}${again ? ' again' : ''}`;
}

/**
 * The message of a followed run's progress notification, after its title: pages done of pages known
 * (`12 of ~40 pages`, `~` while a deep crawl may find more), the failed ones, and, before any page is
 * done, whether the service has started it (`waiting to start, 3 pages`). It was `0/40 pages
 * succeeded` from start to end of a crawl whose every page failed, and said nothing of pages at work.
 *
 * @example
 * ```ts
 * progressMessage({ status: 'running', type: 'deep-crawl', stats: { total: 40, succeeded: 11, failed: 1 } });
 * // '12 of ~40 pages, 1 failed'
 * progressMessage({ status: 'queued', type: 'crawl', stats: { total: 3, queued: 3 } }); // 'waiting to start, 3 pages'
 * ```
 */
export function progressMessage(run: Pick<Run, 'status' | 'type' | 'stats'>): string {
  const total = run.stats?.total;
  if (total === undefined) return run.status === 'queued' ? 'waiting to start' : run.status;
  const done = pagesDone(run);
  if (done === 0 && run.status === 'queued') return `waiting to start, ${countOf(total, 'page')}`;
  const count = `${progressCount(run)} ${total === 1 ? 'page' : 'pages'}`;
  const failed = run.stats?.failed ?? 0;
  return failed > 0 ? `${count}, ${failed} failed` : count;
}
