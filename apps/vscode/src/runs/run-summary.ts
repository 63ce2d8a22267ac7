import { countOf } from '../text/count-of.js';
import { relativeTime, runLabel } from '../tree/describe-run.js';
import type { Run } from './run-types.js';

/**
 * The progress line of a run: `2/5 pages succeeded, 1 failed`.
 *
 * @example
 * ```ts
 * progressText({ status: 'running', stats: { total: 5, succeeded: 2, failed: 1 } } as Run); // '2/5 pages succeeded, 1 failed'
 * ```
 */
export function progressText(run: Pick<Run, 'status' | 'stats'>): string {
  const stats = run.stats;
  if (!stats || stats.total === undefined) return run.status;
  const failed = stats.failed ? `, ${stats.failed} failed` : '';
  return `${stats.succeeded ?? 0}/${stats.total} pages succeeded${failed}`;
}

/**
 * What the message at the end of a followed run says: how it ended, the
 * run's own error, and why its first failed page failed (`firstFailure`,
 * from `resultFailure`), so that a failure is explained where it is
 * announced rather than one expand and one click away.
 *
 * @example
 * ```ts
 * runEndSummary(run, 'crawl of 3 URLs', 'a.example/x failed: HTTP 404 from https://a.example/x (http_error)');
 * // 'Crawl of 3 URLs incomplete: 2/3 pages succeeded, 1 failed. a.example/x failed: HTTP 404 from https://a.example/x (http_error)'
 * ```
 */
export function runEndSummary(
  run: Pick<Run, 'status' | 'stats' | 'error'>,
  what: string,
  firstFailure?: string,
): string {
  const parts = [`${what.charAt(0).toUpperCase()}${what.slice(1)} ${run.status}: ${progressText(run)}.`];
  const said = run.error?.message?.trim();
  // A sentence of its own: the service's message may start in lower case ('no page could be processed…').
  const error = said ? `${said.charAt(0).toUpperCase()}${said.slice(1)}` : undefined;
  if (run.status === 'failed' && error) parts.push(/[.!?]$/.test(error) ? error : `${error}.`);
  if (firstFailure) parts.push((run.stats?.failed ?? 0) > 1 ? `The first: ${firstFailure}` : firstFailure);
  return parts.join(' ');
}

/**
 * What Open All Results asks before opening many tabs: the run named by what
 * it is (not its id), how many pages it got, and that Go to Result… finds one.
 *
 * @example
 * ```ts
 * manyResultsQuestion({ type: 'crawl', urls: ['https://docs.example/a', 'https://docs.example/b'] }, 300, 10);
 * // 'Crawl · docs.example/a +1 got 300 pages. Open the first 10 in tabs, or all of them? (Go to Result… finds one by its title.)'
 * ```
 */
export function manyResultsQuestion(
  run: Pick<Run, 'type' | 'urls' | 'params'>,
  count: number,
  first: number,
): string {
  return `${runLabel(run)} got ${count} pages. Open the first ${first} in tabs, or all of them? (Go to Result… finds one by its title.)`;
}

/**
 * What Delete Run… asks: the run named by what it is and where it went (its id means nothing to
 * whoever reads the question), with its pages; the id and when it was created in the detail.
 *
 * @example
 * ```ts
 * deleteQuestion('run_1', { type: 'crawl', urls: ['https://docs.example/a'], params: {},
 *   created_at: '2024-05-01T10:00:00Z', stats: { total: 3 } } as Run, Date.parse('2024-05-01T10:05:00Z'));
 * // { message: 'Delete Crawl · docs.example/a and its results (3 pages)?',
 * //   detail: 'Run run_1, created 5 min ago. This cannot be undone.' }
 * ```
 */
export function deleteQuestion(
  runId: string,
  run: Pick<Run, 'type' | 'urls' | 'params' | 'created_at' | 'stats'> | undefined,
  now: number,
): { message: string; detail: string } {
  if (!run) return { message: `Delete run ${runId}?`, detail: 'This cannot be undone.' };
  // Not 'its 1 page of results', which reads as a page of a list: the pages are the run's.
  const pages = run.stats?.total ? ` and its results (${countOf(run.stats.total, 'page')})` : '';
  return {
    message: `Delete ${runLabel(run)}${pages}?`,
    detail: `Run ${runId}, created ${relativeTime(run.created_at, now)}. This cannot be undone.`,
  };
}
