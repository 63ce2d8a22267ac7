import { LIMITS, type Run } from '@webdata/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;

// No workers: the runs stay queued, and nothing is fetched.
beforeAll(async () => {
  server = await startTestServer({ runWorkers: false });
});

afterAll(async () => {
  await server?.close();
});

describe('GET /runs', () => {
  it('reads long pages of small runs whole', async () => {
    const { call } = server;
    for (let n = 0; n < 60; n++)
      await call('POST', '/api/v1/crawl', { urls: [`https://small.example/${n}`] });
    const { body } = await call('GET', '/api/v1/runs?limit=55');
    expect(body.data).toHaveLength(55);
    expect(body.next_cursor).not.toBeNull();
    const rest = await call('GET', `/api/v1/runs?limit=200&cursor=${body.next_cursor}`);
    expect(rest.body.data).toHaveLength(5);
    expect(rest.body.next_cursor).toBeNull();
    const ids = [...body.data, ...rest.body.data].map((run: Run) => run.id);
    expect(new Set(ids).size).toBe(60);
  });

  it('ends a page at 4 Mi characters of URLs and params, and the cursor goes on to the rest', async () => {
    const { call } = server;
    // 30 runs of 100 URLs of 2,000 characters: about 6 Mi characters, within 200 runs.
    const created: string[] = [];
    for (let n = 0; n < 30; n++) {
      const urls = Array.from({ length: 100 }, (_, i) => `https://s${n}.example/${i}/${'a'.repeat(1980)}`);
      const { status, body } = await call('POST', '/api/v1/crawl', { urls });
      expect(status).toBe(202);
      created.push(body.id);
    }
    const seen: string[] = [];
    const pageSizes: number[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await call(
        'GET',
        `/api/v1/runs?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(status).toBe(200);
      const chars = (body.data as Run[]).reduce((sum, run) => sum + run.urls.join('').length, 0);
      expect(chars).toBeLessThanOrEqual(LIMITS.maxRunListChars);
      seen.push(...body.data.map((run: Run) => run.id));
      pageSizes.push(body.data.length);
      cursor = body.next_cursor;
    } while (cursor);
    // The 60 small runs of the test before, after these (the list is newest first).
    expect(seen.slice(0, 30).sort()).toEqual(created.sort());
    expect(seen).toHaveLength(90);
    expect(pageSizes.length).toBe(2);

    // ids= reads the same way.
    const byIds = await call('GET', `/api/v1/runs?ids=${created.join(',')}&limit=200`);
    expect(byIds.body.data.length).toBe(pageSizes[0]);
    expect(byIds.body.next_cursor).not.toBeNull();
  });
});
