import { RunPage, RunPageLenient } from '@webdata/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, expectError, preview, readAs } from '../src/checks.js';
import { apiClient } from '../src/http-client.js';
import { anyPageUrl, requireOwnServer } from '../src/paths.js';
import { conformanceTarget } from '../src/target.js';

const target = conformanceTarget();
const call = apiClient(target.baseUrl, target.apiKey);
const created: string[] = [];
/** More runs of the key, so the default page size has more than one page to cut. */
const filler: string[] = [];
/** The default page size of api-v1 lists. */
const DEFAULT_PAGE_SIZE = 50;

beforeAll(async () => {
  // Three runs, oldest first, a few milliseconds apart so "newest first" has an order to show.
  for (let i = 0; i < 3; i++) {
    created.push((await createRun(call, '/api/v1/crawl', { urls: [anyPageUrl(target, `/c?n=${i}`)] })).id);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
});

afterAll(async () => {
  for (const id of [...created, ...filler]) await call('DELETE', `/api/v1/runs/${id}`);
});

async function listRuns(query: string) {
  const response = await call('GET', `/api/v1/runs?${query}`);
  expect(response.status, preview(response.body)).toBe(200);
  return readAs(target, RunPageLenient, RunPage, response.body);
}

describe('GET /runs', () => {
  it('[api-v1 Lists] the body is { data, next_cursor } and lists are newest first', async () => {
    const page = await listRuns(`ids=${created.join(',')}`);
    expect(page.data.map((run) => run.id)).toEqual([...created].reverse());
    expect(page.next_cursor ?? null).toBeNull();
  });

  it('[api-v1 Lists] cursor pagination walks every item once with ?limit= and ?cursor=', async () => {
    const first = await listRuns(`ids=${created.join(',')}&limit=2`);
    expect(first.data).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await listRuns(
      `ids=${created.join(',')}&limit=2&cursor=${encodeURIComponent(first.next_cursor!)}`,
    );
    expect(second.data).toHaveLength(1);
    expect(second.next_cursor ?? null).toBeNull();
    expect([...first.data, ...second.data].map((run) => run.id)).toEqual([...created].reverse());
  });

  it('[api-v1 Lists] pages of the unfiltered list do not repeat items and keep newest-first order', async () => {
    const seen: string[] = [];
    const times: number[] = [];
    let cursor: string | null | undefined;
    for (let pages = 0; pages < 3; pages++) {
      const page = await listRuns(`limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.data.map((run) => run.id));
      times.push(...page.data.map((run) => Date.parse(run.created_at)));
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('[api-v1 Lists] limit defaults to 50 and accepts 1 and 200', async () => {
    // This file's runs alone make the key hold more than a default page (other files' runs only add).
    while (created.length + filler.length <= DEFAULT_PAGE_SIZE) {
      filler.push((await createRun(call, '/api/v1/crawl', { urls: [anyPageUrl(target, '/c?filler')] })).id);
    }
    const byDefault = await listRuns('');
    expect(byDefault.data).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(byDefault.next_cursor).toEqual(expect.any(String));
    const one = await listRuns('limit=1');
    expect(one.data).toHaveLength(1);
    expect(one.next_cursor).toEqual(expect.any(String));
    const most = await listRuns('limit=200');
    expect(most.data.length).toBeGreaterThan(DEFAULT_PAGE_SIZE);
    expect(most.data.length).toBeLessThanOrEqual(200);
    expect(most.data.map((run) => run.id)).toEqual(expect.arrayContaining([...created, ...filler]));
  });

  it('[api-v1 Requests] GET /runs filters by type and status', async () => {
    const crawls = await listRuns(`ids=${created.join(',')}&type=crawl`);
    expect(crawls.data).toHaveLength(3);
    expect((await listRuns(`ids=${created.join(',')}&type=extract`)).data).toEqual([]);
    const statuses = new Set((await listRuns(`ids=${created.join(',')}`)).data.map((run) => run.status));
    for (const status of statuses) {
      const filtered = await listRuns(`status=${status}&limit=200`);
      expect(filtered.data.every((run) => run.status === status)).toBe(true);
    }
  });

  it('[api-v1 Polling] GET /runs?ids=a,b,c reads many runs in one request, unknown ids left out', async () => {
    const page = await listRuns(`ids=${created[0]},run_conformanceunknown,${created[2]}`);
    expect(page.data.map((run) => run.id).sort()).toEqual([created[0], created[2]].sort());
  });

  it('[api-v1 Lists] a cursor the server did not issue answers 400', async (context) => {
    requireOwnServer(target, context, 'cursors are checked, not ignored');
    expectError(target, await call('GET', '/api/v1/runs?cursor=not-a-cursor'), 400, 'invalid_request');
  });
});
