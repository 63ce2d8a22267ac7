/**
 * A host's crawl-delay does not hold the worker slots. A key crawls a site whose robots.txt asks
 * for 2 s between requests, then starts a crawl of another host: the second ends while the first
 * has fetched only a few of its pages. Before, every slot held one of the polite site's pages
 * waiting for its turn, and the second crawl's pages waited behind them (in the bench: 48 pages
 * took 71 s beside such a crawl and 7 s alone).
 *
 * And one key's polite crawl does not hold another key's page of the same host back behind all of
 * its pages: the keys take turns at the host.
 *
 * Asserted by order (how many of the polite site's pages had been answered when the other crawl
 * ended), not by time. Runs on both stores (the api-on-postgres project runs it again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, getRun, waitForRun } from './api-client.js';
import { FixtureSite, page } from './fixture-site.js';
import { startTestServer, type TestServer } from './test-server.js';

const POLITE_PAGES = 12;
const QUICK_PAGES = 24;
const MIXED_PAGES = 12;

let polite: FixtureSite;
let quick: FixtureSite;
let shared: FixtureSite;
let mixedPolite: FixtureSite;
let server: TestServer;

function pages(prefix: string, count: number): Record<string, { body: string }> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`/${prefix}/${i}`, { body: page(`${prefix} ${i}`) }]),
  );
}

beforeAll(async () => {
  polite = new FixtureSite({
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nCrawl-delay: 2\n' },
    ...pages('polite', POLITE_PAGES),
  });
  // Another host to the crawler (its own politeness), on loopback.
  await polite.start('127.0.0.2');
  quick = new FixtureSite({ ...pages('quick', QUICK_PAGES), ...pages('mixed', MIXED_PAGES) });
  await quick.start();
  shared = new FixtureSite({
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nCrawl-delay: 1\n' },
    ...pages('big', POLITE_PAGES),
    '/other/page': { body: page('another key') },
  });
  await shared.start('127.0.0.3');
  mixedPolite = new FixtureSite({
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nCrawl-delay: 2\n' },
    ...pages('polite', MIXED_PAGES),
  });
  await mixedPolite.start('127.0.0.4');
  server = await startTestServer({ workerConcurrency: 8 });
});

afterAll(async () => {
  await server?.close();
  await polite?.stop();
  await quick?.stop();
  await shared?.stop();
  await mixedPolite?.stop();
});

describe("a host's crawl-delay and the worker slots", () => {
  it("lets a key's crawl of another host end while its polite crawl waits for its turns", {
    timeout: 120_000,
  }, async () => {
    const call = apiClient(server.url, await server.createKey());
    const slow = await call('POST', '/api/v1/crawl', {
      urls: Array.from({ length: POLITE_PAGES }, (_, i) => `${polite.url}/polite/${i}`),
      limit: POLITE_PAGES,
    });
    expect(slow.status).toBe(202);
    const fast = await call('POST', '/api/v1/crawl', {
      urls: Array.from({ length: QUICK_PAGES }, (_, i) => `${quick.url}/quick/${i}`),
      limit: QUICK_PAGES,
    });
    expect(fast.status).toBe(202);
    const ended = await waitForRun(call, fast.body.id, 60_000);
    const politeFetched = Array.from({ length: POLITE_PAGES }, (_, i) => polite.count(`/polite/${i}`)).filter(
      (count) => count > 0,
    ).length;
    const politeRun = await getRun(call, slow.body.id);

    expect(ended.status).toBe('completed');
    expect(ended.stats.succeeded).toBe(QUICK_PAGES);
    // One of the polite site's pages every 2 s: the other crawl's 24 pages take well under a second
    // alone, and ended before a quarter of the polite pages had their turn. Before, they ended after
    // most of them (every slot held a polite page waiting for its turn).
    expect(politeFetched).toBeLessThanOrEqual(POLITE_PAGES / 4);
    expect(politeRun.status).toBe('running');

    // The polite crawl goes on at its pace and ends in full, each page fetched once.
    const done = await waitForRun(call, slow.body.id, 90_000);
    expect(done.status).toBe('completed');
    expect(done.stats.succeeded).toBe(POLITE_PAGES);
    for (let i = 0; i < POLITE_PAGES; i += 1) expect(polite.count(`/polite/${i}`)).toBe(1);
  });

  it("does not hold a run's pages of other hosts back while one of its pages waits for a polite host's turn", {
    timeout: 120_000,
  }, async () => {
    const call = apiClient(server.url, await server.createKey());
    // One run over two hosts, their pages interleaved as a batch of URLs often is.
    const urls = Array.from({ length: MIXED_PAGES }, (_, i) => [
      `${mixedPolite.url}/polite/${i}`,
      `${quick.url}/mixed/${i}`,
    ]).flat();
    const created = await call('POST', '/api/v1/crawl', { urls, limit: urls.length });
    expect(created.status).toBe(202);
    const deadline = Date.now() + 60_000;
    const quickDone = () =>
      Array.from({ length: MIXED_PAGES }, (_, i) => quick.count(`/mixed/${i}`)).filter((count) => count > 0)
        .length;
    while (quickDone() < MIXED_PAGES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const politeFetched = Array.from({ length: MIXED_PAGES }, (_, i) =>
      mixedPolite.count(`/polite/${i}`),
    ).filter((count) => count > 0).length;

    // Every quick page was fetched while the polite host had given a quarter of its turns (one every
    // 2 s); before, the run's quick pages waited whenever one of its polite pages did.
    expect(quickDone()).toBe(MIXED_PAGES);
    expect(politeFetched).toBeLessThanOrEqual(MIXED_PAGES / 4);

    const done = await waitForRun(call, created.body.id, 90_000);
    expect(done.status).toBe('completed');
    expect(done.stats.succeeded).toBe(urls.length);
    for (let i = 0; i < MIXED_PAGES; i += 1) {
      expect(mixedPolite.count(`/polite/${i}`)).toBe(1);
      expect(quick.count(`/mixed/${i}`)).toBe(1);
    }
  });

  it("serves another key's page of the same polite host in turn, not after the first key's pages", {
    timeout: 120_000,
  }, async () => {
    const big = apiClient(server.url, await server.createKey());
    const other = apiClient(server.url, await server.createKey());
    const crawl = await big('POST', '/api/v1/crawl', {
      urls: Array.from({ length: POLITE_PAGES }, (_, i) => `${shared.url}/big/${i}`),
      limit: POLITE_PAGES,
    });
    expect(crawl.status).toBe(202);
    // The big crawl's pages are claimed and queue for their turns at the host (one a second).
    const deadline = Date.now() + 30_000;
    while (shared.count('/big/0') + shared.count('/big/1') === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const one = await other('POST', '/api/v1/crawl', { urls: [`${shared.url}/other/page`], limit: 1 });
    expect(one.status).toBe(202);
    const ended = await waitForRun(other, one.body.id, 60_000);
    const bigFetched = Array.from({ length: POLITE_PAGES }, (_, i) => shared.count(`/big/${i}`)).filter(
      (count) => count > 0,
    ).length;

    expect(ended.status).toBe('completed');
    expect(shared.count('/other/page')).toBe(1);
    // Its turn came after the big crawl's page then in progress or next, not after the up to 8 that
    // had been claimed and were waiting for the host (first come, first served, before).
    expect(bigFetched).toBeLessThanOrEqual(3);

    const done = await waitForRun(big, crawl.body.id, 90_000);
    expect(done.status).toBe('completed');
    expect(done.stats.succeeded).toBe(POLITE_PAGES);
  });
});
