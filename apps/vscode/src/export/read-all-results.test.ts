import { describe, expect, it } from 'vitest';
import type { Page, Result } from '../runs/run-types.js';
import { makeResult } from '../test-support/runs.js';
import {
  ReadCancelled,
  type ResultsPager,
  readAllResults,
  readResultsWithProgress,
} from './read-all-results.js';

/** A service holding `count` results, listed `limit` at a time; it records each page asked for. */
function pager(count: number, onRequest?: (asked: number) => void) {
  const all = Array.from({ length: count }, (_, i) => makeResult('run_1', `res_${i}`));
  const asked: { cursor?: string | undefined; limit?: number | undefined }[] = [];
  const api: ResultsPager = {
    async resultsPage(_runId, query, options) {
      asked.push(query);
      onRequest?.(asked.length);
      options?.signal?.throwIfAborted();
      const start = Number(query.cursor ?? 0);
      const end = start + (query.limit ?? 50);
      const page: Page<Result> = {
        data: all.slice(start, end),
        next_cursor: end < count ? String(end) : null,
      };
      return page;
    },
  };
  return { api, asked, all };
}

describe('readAllResults', () => {
  it('reads every page of the results list, following the cursor to the last', async () => {
    const { api, asked, all } = pager(5);
    const read: number[] = [];
    const results = await readAllResults(api, 'run_1', { pageSize: 2, onPage: (n) => read.push(n) });
    expect(results).toEqual(all);
    expect(asked).toEqual([
      { limit: 2, cursor: undefined },
      { limit: 2, cursor: '2' },
      { limit: 2, cursor: '4' },
    ]);
    expect(read).toEqual([2, 4, 5]);
  });

  it('asks for the largest page the API serves by default', async () => {
    const { api, asked } = pager(3);
    await readAllResults(api, 'run_1');
    expect(asked).toEqual([{ limit: 200, cursor: undefined }]);
  });

  it('asks for each page with its content, and puts aside what keep takes before asking for the next', async () => {
    const events: string[] = [];
    const api: ResultsPager = {
      async resultsPage(_runId, query) {
        events.push(`page ${query.cursor ?? 0} content=${query.content}`);
        const start = Number(query.cursor ?? 0);
        const data = [0, 1]
          .map((i) => start + i)
          .filter((i) => i < 3)
          .map((i) => ({ ...makeResult('run_1', `res_${i}`), content: `# page ${i}` }));
        return { data, next_cursor: start + 2 < 3 ? String(start + 2) : null };
      },
    };
    const results = await readAllResults(api, 'run_1', {
      pageSize: 2,
      content: 'markdown',
      keep: async (page) => {
        events.push(`kept ${page.map((result) => result.content).join(', ')}`);
        return page.map(({ content: _content, ...rest }) => rest);
      },
    });
    expect(events).toEqual([
      'page 0 content=markdown',
      'kept # page 0, # page 1',
      'page 2 content=markdown',
      'kept # page 2',
    ]);
    expect(results.map((result) => result.id)).toEqual(['res_0', 'res_1', 'res_2']);
    expect(results.some((result) => 'content' in result)).toBe(false);
  });

  it('stops asking once cancelled, and rejects', async () => {
    const controller = new AbortController();
    const { api, asked } = pager(10, (n) => {
      if (n === 2) controller.abort(new Error('cancelled'));
    });
    await expect(readAllResults(api, 'run_1', { pageSize: 2, signal: controller.signal })).rejects.toThrow(
      'cancelled',
    );
    expect(asked).toHaveLength(2);
  });
});

describe('readResultsWithProgress', () => {
  function token() {
    const listeners = new Set<() => void>();
    const state = {
      isCancellationRequested: false,
      onCancellationRequested(listener: () => void) {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
      cancel() {
        state.isCancellationRequested = true;
        for (const listener of listeners) listener();
      },
      listeners,
    };
    return state;
  }

  it('reports how many of the expected results were read after each page, the bar moving by their share', async () => {
    const { api } = pager(5);
    const reports: unknown[] = [];
    const cancellation = token();
    const results = await readResultsWithProgress(
      api,
      'run_1',
      5,
      { report: (v) => reports.push(v) },
      cancellation,
      2,
    );
    expect(results).toHaveLength(5);
    expect(reports).toEqual([
      { message: '2 of 5 results read', increment: 40 },
      { message: '4 of 5 results read', increment: 40 },
      { message: '5 of 5 results read', increment: 20 },
    ]);
    expect(cancellation.listeners.size).toBe(0);
  });

  it('stops at once when cancelled: the page in flight aborted, no further page asked for', async () => {
    const cancellation = token();
    const signals: (AbortSignal | undefined)[] = [];
    const api: ResultsPager = {
      resultsPage: (_runId, query, options) => {
        signals.push(options?.signal);
        if (query.cursor === undefined) {
          return Promise.resolve({ data: [makeResult('run_1', 'res_1')], next_cursor: 'c' });
        }
        // The second page is slow: the user cancels while it is out.
        setTimeout(() => cancellation.cancel(), 10);
        return new Promise((_, reject) =>
          // As the client does: its own AbortError, not the signal's reason.
          options?.signal?.addEventListener('abort', () => reject(new Error('the operation was aborted'))),
        );
      },
    };
    const reading = readResultsWithProgress(api, 'run_1', 10, { report: () => undefined }, cancellation, 1);
    await expect(reading).rejects.toBeInstanceOf(ReadCancelled);
    expect(signals).toHaveLength(2);
    expect(signals[1]?.aborted).toBe(true);
  });
});
