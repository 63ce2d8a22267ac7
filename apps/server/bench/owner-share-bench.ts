/**
 * `tsx bench/owner-share-bench.ts` (WEBDATA_TEST_STORE=postgres for the PostgreSQL store): how long
 * key B's small crawl (3 pages, each found on the one before) takes alone and behind key A's crawl
 * of slow pages that hold every worker slot, and what A's crawl takes alone (slow pages, then a
 * generated site of fast ones): one owner alone must still use every slot.
 * Servers run in this process (test/test-server.ts), 8 slots, fixture sites on 127.0.0.1.
 */
import { apiClient, waitForRun } from '../test/api-client.js';
import { FixtureSite, generatedSite } from '../test/fixture-site.js';
import { ownerShareRoutes } from '../test/owner-share-site.js';
import { startTestServer } from '../test/test-server.js';

const CONCURRENCY = 8;
const SLOW_PAGES = Number(process.env.SLOW_PAGES ?? 24);
const HOLD_MS = Number(process.env.HOLD_MS ?? 3_000);
const FAST_PAGES = Number(process.env.FAST_PAGES ?? 1_000);

const { routes, slow } = ownerShareRoutes(SLOW_PAGES, HOLD_MS);
const site = new FixtureSite(routes);
await site.start();
const fast = new FixtureSite(generatedSite(FAST_PAGES, 4));
await fast.start();

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const start = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - start) / 1000 };
}

const server = await startTestServer({ workerConcurrency: CONCURRENCY, perHostConcurrency: CONCURRENCY * 4 });
try {
  const a = apiClient(server.url, await server.createKey());
  const b = apiClient(server.url, await server.createKey());
  const slowUrls = Array.from({ length: SLOW_PAGES }, (_, i) => `${site.url}/a/${i}`);
  const crawl = async (call: typeof a, body: unknown) => {
    const created = await call('POST', '/api/v1/crawl', body);
    if (created.status !== 202) throw new Error(JSON.stringify(created.body));
    const run = await waitForRun(call, created.body.id, 600_000);
    if (run.status !== 'completed') throw new Error(`${run.status}: ${JSON.stringify(run.stats)}`);
    return run;
  };
  const small = { url: `${site.url}/b/0`, limit: 3 };

  const bAlone = await timed(() => crawl(b, small));
  const aAlone = await timed(() => crawl(a, { urls: slowUrls }));

  const aRun = timed(() => crawl(a, { urls: slowUrls }));
  await until(() => slow.inFlight === CONCURRENCY);
  const bBehind = await timed(() => crawl(b, small));
  const aWithB = await aRun;

  const fastAlone = await timed(() => crawl(a, { url: `${fast.url}/p/0`, limit: FAST_PAGES }));
  const store = process.env.WEBDATA_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
  console.log(
    `${store}: B alone ${bAlone.seconds.toFixed(2)} s, B behind A ${bBehind.seconds.toFixed(2)} s; ` +
      `A's ${SLOW_PAGES} slow pages (${HOLD_MS} ms each) alone ${aAlone.seconds.toFixed(2)} s, beside B ${aWithB.seconds.toFixed(2)} s; ` +
      `A's ${fastAlone.value.stats.succeeded} fast pages alone ${fastAlone.seconds.toFixed(2)} s = ${(fastAlone.value.stats.succeeded / fastAlone.seconds).toFixed(0)} pages/s`,
  );
} finally {
  await server.close();
  await site.stop();
  await fast.stop();
}
