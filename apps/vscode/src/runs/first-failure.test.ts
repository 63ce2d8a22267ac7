import { describe, expect, it } from 'vitest';
import { makeResult } from '../test-support/runs.js';
import { type FailedResultsPager, firstFailedResult, firstFailure } from './first-failure.js';
import type { Result } from './run-types.js';

/** A service listing `failed` (in the order they failed) `limit` at a time; it counts the requests. */
function pager(failed: Result[]) {
  const asked: { status?: string; cursor?: string | undefined; limit?: number | undefined }[] = [];
  const api: FailedResultsPager = {
    async resultsPage(_runId, query) {
      asked.push(query);
      const start = Number(query.cursor ?? 0);
      const end = start + (query.limit ?? 50);
      return { data: failed.slice(start, end), next_cursor: end < failed.length ? String(end) : null };
    },
  };
  return { api, asked };
}

const fail = (id: string, url: string) =>
  makeResult('run_1', id, {
    url,
    status: 'failed',
    title: null,
    data: null,
    error: { code: 'http_error', message: `HTTP 404 from ${url}` },
  });

describe('firstFailure', () => {
  const urls = ['https://a.example/1', 'https://a.example/2', 'https://a.example/3'];

  it('names the first URL given that failed, not the first page to fail in time', async () => {
    // 3 failed first, then 2.
    const { api } = pager([fail('res_3', urls[2]!), fail('res_2', urls[1]!)]);
    const said = await firstFailure(api, { id: 'run_1', urls, stats: { total: 3, succeeded: 1, failed: 2 } });
    expect(said).toBe('a.example/2 failed: HTTP 404 (http_error)');
  });

  it('reads the failed pages until the first URL given is among them, and no further', async () => {
    const found = Array.from({ length: 450 }, (_, i) => fail(`res_f${i}`, `https://a.example/found/${i}`));
    const { api, asked } = pager([...found.slice(0, 250), fail('res_1', urls[0]!), ...found.slice(250)]);
    const result = await firstFailedResult(api, { id: 'run_1', urls });
    expect(result?.id).toBe('res_1');
    expect(asked.map((query) => query.cursor)).toEqual([undefined, '200']);
    expect(asked.every((query) => query.status === 'failed')).toBe(true);
  });

  it('takes the first found page to fail when no URL given failed, and says nothing when none did', async () => {
    const { api } = pager([
      fail('res_f1', 'https://a.example/found/1'),
      fail('res_f2', 'https://a.example/found/2'),
    ]);
    expect((await firstFailedResult(api, { id: 'run_1', urls }))?.id).toBe('res_f1');
    expect(await firstFailure(pager([]).api, { id: 'run_1', urls, stats: { failed: 0 } })).toBeUndefined();
  });
});
