import { describe, expect, it } from 'vitest';
import { makeResult, makeRun } from '../test-support/runs.js';
import type { Page, Result, Run } from './run-types.js';
import type { RunsApi } from './runs-api.js';
import { RunsLoader, StaleLoadError } from './runs-loader.js';
import { RunsStore } from './runs-store.js';

/** A service whose listing answers when the test says. */
function slowApi() {
  let answer: (page: Page<Run>) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const api = {
    list: () =>
      new Promise<Page<Run>>((resolve, reject) => {
        answer = resolve;
        fail = reject;
      }),
  } as unknown as RunsApi;
  return { api, answer: (page: Page<Run>) => answer(page), fail: (error: Error) => fail(error) };
}

describe('RunsLoader', () => {
  it("leaves the store alone when the connection changed while the list was out (the previous service's answer)", async () => {
    const store = new RunsStore();
    const loader = new RunsLoader(store, 50);
    const old = slowApi();
    loader.setApi(old.api);
    const listing = loader.loadFirstPage();
    // Another address: the store is reset for it, and the old service answers afterwards.
    loader.setApi(slowApi().api);
    store.reset();
    old.answer({ data: [makeRun('run_of_the_old_service')], next_cursor: null });
    await expect(listing).rejects.toBeInstanceOf(StaleLoadError);
    expect(store.runs).toEqual([]);
    expect(store.listState.state).not.toBe('loaded');
  });

  it("keeps the previous service's failure out of the store too", async () => {
    const store = new RunsStore();
    const loader = new RunsLoader(store, 50);
    const old = slowApi();
    loader.setApi(old.api);
    const listing = loader.loadFirstPage();
    loader.setApi(slowApi().api);
    store.reset();
    old.fail(new Error('connect ECONNREFUSED'));
    await expect(listing).rejects.toBeInstanceOf(StaleLoadError);
    expect(store.listState.state).not.toBe('error');
  });

  it("asks for a result of every URL given in a run's first page, so that the view lists them in that order", async () => {
    const store = new RunsStore();
    const loader = new RunsLoader(store, 50);
    const limits: (number | undefined)[] = [];
    loader.setApi({
      resultsPage: async (_runId: string, query: { limit?: number }) => {
        limits.push(query.limit);
        return { data: [], next_cursor: 'more' } satisfies Page<Result>;
      },
    } as unknown as RunsApi);
    const urls = (count: number) => Array.from({ length: count }, (_, i) => `https://shop.example/${i}`);
    store.replaceFirstPage({
      data: [makeRun('run_80', { urls: urls(80) }), makeRun('run_3', { urls: urls(3) })],
      next_cursor: null,
    });
    await loader.loadResults('run_80');
    await loader.loadResults('run_3');
    // Load more… goes on by the page size.
    await loader.loadResults('run_80', true);
    expect(limits).toEqual([80, 50, 50]);
  });

  it("reads an ended run's failed pages once, at most a page of them, for its row's Retry", async () => {
    const store = new RunsStore();
    const loader = new RunsLoader(store, 50);
    const run = makeRun('run_f', {
      status: 'failed',
      finished_at: '2024-05-01T10:05:00.000Z',
      stats: { total: 1, queued: 0, running: 0, succeeded: 0, failed: 1, cancelled: 0 },
    });
    store.replaceFirstPage({ data: [run], next_cursor: null });
    const queries: unknown[] = [];
    const tooLarge = makeResult('run_f', 'res_1', {
      status: 'failed',
      error: { code: 'too_large', message: 'over the limit' },
    });
    loader.setApi({
      resultsPage: async (_runId: string, query: unknown) => {
        queries.push(query);
        return { data: [tooLarge], next_cursor: null } satisfies Page<Result>;
      },
    } as unknown as RunsApi);
    await Promise.all([loader.loadFailedPages('run_f'), loader.loadFailedPages('run_f')]);
    expect(queries).toEqual([{ status: 'failed', limit: 200 }]);
    expect(store.failedPagesOf('run_f')).toEqual({ results: [tooLarge], complete: true });
    loader.setApi({
      resultsPage: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    } as unknown as RunsApi);
    await expect(loader.loadFailedPages('run_f')).rejects.toThrow('ECONNREFUSED');
    expect(store.failedPagesOf('run_f')).toBe('unreadable');
  });
});
