/**
 * One key cannot hold every worker slot. Key A's crawl of slow pages (each holds its response for
 * a few seconds, as a slow-drip page or a screenshot wait would) fills every slot of the pool and
 * its reserve; key B's small crawl (three pages, each found on the one before) still gets a slot
 * as soon as one frees, and keeps one for its next page: B ends while A's second round of slow
 * pages is still being fetched. Before, B's first page waited behind A's reserve and each of its
 * next pages behind a whole round of A's (the audit measured 0.43 s alone and 92.4 s behind A).
 *
 * Asserted by order (which of A's pages had been answered when B ended), not by time. Runs on
 * both stores (the api-on-postgres project runs it again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, getRun, waitForRun } from './api-client.js';
import { FixtureSite } from './fixture-site.js';
import { ownerShareRoutes } from './owner-share-site.js';
import { startTestServer, type TestServer } from './test-server.js';

const CONCURRENCY = 8;
/** Three rounds of A's slow pages. */
const SLOW_PAGES = CONCURRENCY * 3;
const HOLD_MS = 3_000;

let site: FixtureSite;
let server: TestServer;
/** A's slow pages and B's crawl; the counts of A's pages. */
const { routes, slow } = ownerShareRoutes(SLOW_PAGES, HOLD_MS);

beforeAll(async () => {
  site = new FixtureSite(routes);
  await site.start();
  server = await startTestServer({
    workerConcurrency: CONCURRENCY,
    // Both keys crawl the one fixture host: its politeness gate is not what is tested here.
    perHostConcurrency: CONCURRENCY * 4,
  });
});

afterAll(async () => {
  await server?.close();
  await site?.stop();
});

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a fair share of the worker slots by owner', () => {
  it("lets key B's small crawl end while key A's slow pages hold the slots", {
    timeout: 90_000,
  }, async () => {
    const a = apiClient(server.url, await server.createKey());
    const b = apiClient(server.url, await server.createKey());
    const urls = Array.from({ length: SLOW_PAGES }, (_, i) => `${site.url}/a/${i}`);
    const slowRun = await a('POST', '/api/v1/crawl', { urls });
    expect(slowRun.status).toBe(202);
    // Every slot holds one of A's slow pages (and, embedded, the reserve a pool's worth more).
    await until(() => slow.requested === CONCURRENCY, "A's first round in every slot");

    const small = await b('POST', '/api/v1/crawl', { url: `${site.url}/b/0`, limit: 3 });
    expect(small.status).toBe(202);
    const ended = await waitForRun(b, small.body.id, 60_000);
    const answeredWhenBEnded = slow.answered;
    const aWhenBEnded = await getRun(a, slowRun.body.id);

    expect(ended.status).toBe('completed');
    expect(ended.stats.succeeded).toBe(3);
    expect(['/b/0', '/b/1', '/b/2'].map((path) => site.count(path))).toEqual([1, 1, 1]);
    // B waited for one of A's pages to end (every slot was A's), then kept a slot for its next pages:
    // it ended before A's second round was answered. Before, it waited a round of A's for each page.
    expect(answeredWhenBEnded).toBeGreaterThanOrEqual(1);
    expect(answeredWhenBEnded).toBeLessThanOrEqual(CONCURRENCY);
    expect(aWhenBEnded.status).toBe('running');
    expect(aWhenBEnded.stats.succeeded).toBeLessThanOrEqual(CONCURRENCY);

    // A alone again uses every slot (the one B used too), and it ends in full.
    await until(() => slow.inFlight === CONCURRENCY, 'A in every slot again');
    expect(slow.answered).toBeLessThan(SLOW_PAGES);
    const done = await waitForRun(a, slowRun.body.id, 60_000);
    expect(done.status).toBe('completed');
    expect(done.stats.succeeded).toBe(SLOW_PAGES);
  });
});
