import type { ResultContentFormat } from '@webdata/core';
import type { Page, Result } from '../runs/run-types.js';

/** The part of `client.runs` that reads a run's results a page at a time. */
export interface ResultsPager {
  resultsPage(
    runId: string,
    query: {
      cursor?: string | undefined;
      limit?: number | undefined;
      content?: ResultContentFormat | undefined;
    },
    options?: { signal?: AbortSignal },
  ): Promise<Page<Result>>;
}

/** How {@link readAllResults} reads: each result's content too, and what it keeps of each page. */
export interface ReadOptions {
  /** Each result with its content in this format (`include=content`: a page holds at most 8 Mi characters). */
  content?: ResultContentFormat | undefined;
  /**
   * What is kept of each page, called once a page is read and before the next is asked for: what it
   * resolves with is held and resolved with at the end. Save Results… writes each page to a file
   * and holds none (`[]`), so no more than one page of results is held at a time.
   */
  keep?: ((page: Result[]) => Promise<Result[]>) | undefined;
}

/** Results a request asks for: the most a page of the API's results list holds. */
export const READ_PAGE_SIZE = 200;

/**
 * Every result of a run (what `keep` kept of them): each page of the service's results list, following
 * `next_cursor` to the last, whatever the Runs view has loaded. `onPage` is
 * told how many were read after each page (for a progress line); aborting
 * `signal` ends the read at once (the request in flight is aborted too) with
 * the signal's reason, and no further page is asked for.
 */
export async function readAllResults(
  api: ResultsPager,
  runId: string,
  options: { signal?: AbortSignal; onPage?: (read: number) => void; pageSize?: number } & ReadOptions = {},
): Promise<Result[]> {
  const results: Result[] = [];
  let read = 0;
  let cursor: string | undefined;
  do {
    options.signal?.throwIfAborted();
    let page: Page<Result>;
    try {
      page = await api.resultsPage(
        runId,
        {
          limit: options.pageSize ?? READ_PAGE_SIZE,
          cursor,
          ...(options.content ? { content: options.content } : {}),
        },
        options.signal ? { signal: options.signal } : {},
      );
    } catch (error) {
      // The client rejects an aborted request with its own AbortError: the signal's reason says why.
      options.signal?.throwIfAborted();
      throw error;
    }
    options.signal?.throwIfAborted();
    const kept = options.keep ? await options.keep(page.data) : page.data;
    options.signal?.throwIfAborted();
    for (const result of kept) results.push(result);
    read += page.data.length;
    options.onPage?.(read);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return results;
}

/** Rejects {@link readResultsWithProgress} when the user cancelled. */
export class ReadCancelled extends Error {
  override name = 'ReadCancelled';
  constructor() {
    super('cancelled');
  }
}

/** The parts of `vscode.Progress` and `vscode.CancellationToken` the read uses (fakes in tests). */
export interface ProgressReporter {
  report(value: { message?: string; increment?: number }): void;
}
export interface Cancellation {
  isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/**
 * {@link readAllResults} under a progress notification: after each page it
 * reports how many were read of the run's `expected` pages (`120 of 1,000
 * results read`, the bar moving by that share), and cancelling stops the
 * read at once (the request in flight aborted), rejecting with {@link ReadCancelled}.
 */
export async function readResultsWithProgress(
  api: ResultsPager,
  runId: string,
  expected: number | undefined,
  progress: ProgressReporter,
  token: Cancellation,
  pageSize?: number,
  read: ReadOptions = {},
): Promise<Result[]> {
  const controller = new AbortController();
  const cancel = () => controller.abort(new ReadCancelled());
  const listening = token.onCancellationRequested(cancel);
  if (token.isCancellationRequested) cancel();
  let reported = 0;
  try {
    return await readAllResults(api, runId, {
      ...read,
      signal: controller.signal,
      ...(pageSize ? { pageSize } : {}),
      onPage: (read) => {
        const message = expected ? `${read} of ${expected} results read` : `${read} results read`;
        const increment = expected ? ((read - reported) / expected) * 100 : undefined;
        reported = read;
        progress.report(increment === undefined ? { message } : { message, increment });
      },
    });
  } finally {
    listening.dispose();
  }
}
