import { resultFailure } from '../tree/describe-run.js';
import type { Page, Result, Run } from './run-types.js';

/** The part of `client.runs` that lists a run's failed results. */
export interface FailedResultsPager {
  resultsPage(
    runId: string,
    query: { status?: 'failed'; cursor?: string | undefined; limit?: number | undefined },
  ): Promise<Page<Result>>;
}

/** Failed results read a request, and pages of them read at most, looking for the first given URL's. */
export const FAILED_PAGE_SIZE = 200;
export const FAILED_PAGES_READ = 10;

/**
 * The run's first failed page in the order its URLs were given (as the Runs
 * view and a saved file list them), not the first to fail in time: the
 * service lists failed results as they finished, so the failed pages are read
 * (200 a request) until the first URL given is among them, or all are read,
 * or 10 pages (2,000 failures) were; a page a crawl found counts after every
 * given URL, the first of them to fail first.
 *
 * @example
 * ```ts
 * // Given a, b, c; c failed first, then a:
 * await firstFailedResult(client.runs, run); // a's result
 * ```
 */
export async function firstFailedResult(
  api: FailedResultsPager,
  run: Pick<Run, 'id' | 'urls'>,
): Promise<Result | undefined> {
  const urls = run.urls ?? [];
  const position = new Map<string, number>();
  urls.forEach((url, index) => {
    if (!position.has(url)) position.set(url, index);
  });
  let first: Result | undefined;
  let firstRank = Number.POSITIVE_INFINITY;
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await api.resultsPage(run.id, { status: 'failed', limit: FAILED_PAGE_SIZE, cursor });
    for (const result of page.data) {
      const rank = position.get(result.url ?? '') ?? urls.length;
      if (rank < firstRank) {
        first = result;
        firstRank = rank;
      }
    }
    // The first URL given, or no URL given to look for (a found page, first to fail in time): none comes before it.
    if (firstRank === 0 || (first && urls.length === 0)) break;
    cursor = page.next_cursor ?? undefined;
    pages++;
  } while (cursor && pages < FAILED_PAGES_READ);
  return first;
}

/** Why the run's first failed page (in the order of its URLs) failed, for the message at its end. */
export async function firstFailure(
  api: FailedResultsPager,
  run: Pick<Run, 'id' | 'urls' | 'stats'>,
): Promise<string | undefined> {
  if ((run.stats?.failed ?? 0) === 0) return undefined;
  const result = await firstFailedResult(api, run);
  return result ? resultFailure(result) : undefined;
}
