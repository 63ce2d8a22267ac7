import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postgresForTests,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from '../src/store/postgres/throwaway-postgres.test-support.js';
import { type ApiCall, apiClient, waitForRun } from './api-client.js';
import { FixtureSite, page } from './fixture-site.js';
import { runLoad } from './run-load.js';
import { exited, type ServerProcess, spawnServer } from './server-process.js';

/**
 * Scale-out as users run it: API and worker processes (`--role`) sharing one
 * PostgreSQL (a throwaway cluster on 127.0.0.1) and one data directory.
 */
describe.skipIf(!postgresForTests())('scale-out: API and worker processes on one PostgreSQL', () => {
  let cluster: ThrowawayPostgres;
  let site: FixtureSite;
  let dataDir: string;
  const children: ServerProcess[] = [];
  /** Paths whose request is held open until the client gives up (cancel test), and those given up. */
  const hanging = new Set<string>();
  const givenUp = new Set<string>();

  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    const routes: ConstructorParameters<typeof FixtureSite>[0] = {};
    for (let run = 0; run < 200; run++) {
      for (const part of ['a', 'b']) {
        // Each page takes 100 ms, so workers hold items when one of them is killed.
        routes[`/r${run}/${part}`] = (_request, response) => {
          setTimeout(
            () =>
              response.writeHead(200, { 'content-type': 'text/html' }).end(page(`Run ${run} ${part}`, [])),
            100,
          );
        };
      }
    }
    for (let i = 0; i < 4; i++) {
      const path = `/slow/${i}`;
      hanging.add(path);
      // Never answers: only an abort by the worker ends the request.
      routes[path] = (_request, response) => {
        response.once('close', () => givenUp.add(path));
      };
    }
    site = new FixtureSite(routes);
    await site.start();
    dataDir = mkdtempSync(join(tmpdir(), 'webdata-scale-'));
  });

  afterAll(async () => {
    for (const { child } of children) child.kill('SIGKILL');
    await Promise.all(children.map(({ child }) => exited(child)));
    await site?.stop();
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(role: 'api' | 'worker', databaseUrl: string, env: NodeJS.ProcessEnv = {}) {
    // One data directory per setup, shared by its processes, not made beforehand: the first process makes it.
    const child = await spawnServer(
      join(dataDir, new URL(databaseUrl).pathname.slice(1)),
      ['--role', role, '--database-url', databaseUrl, '--allow-private-networks'],
      {
        env: {
          WEBDATA_LEASE_MS: '3000',
          WEBDATA_WORKERS: '8',
          // Each API process has its own rate limiter; the test's bursts must not meet it.
          WEBDATA_RATE_LIMIT: '100000',
          WEBDATA_MAX_ACTIVE_RUNS: '100000',
          WEBDATA_RATE_BURST: '100000',
          ...env,
        },
      },
    );
    children.push(child);
    return child;
  }

  it('runs 200 runs created through two APIs on three workers, one killed with -9: every page exactly once', async () => {
    const databaseUrl = await cluster.createDatabase();
    const api1 = await start('api', databaseUrl);
    expect(api1.apiKey).not.toBeNull();
    const [api2, ...workers] = await Promise.all([
      start('api', databaseUrl),
      start('worker', databaseUrl),
      start('worker', databaseUrl),
      start('worker', databaseUrl),
    ]);
    const apis: ApiCall[] = [apiClient(api1.url, api1.apiKey!), apiClient(api2!.url, api1.apiKey!)];

    const runIds: string[] = [];
    const create = async (run: number) => {
      const call = apis[run % 2]!;
      const { status, body } = await call('POST', '/api/v1/crawl', {
        urls: [`${site.url}/r${run}/a`, `${site.url}/r${run}/b`],
      });
      expect(status).toBe(202);
      runIds[run] = body.id;
    };
    for (let run = 0; run < 200; run += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => create(run + i)));
    }

    // Kill one worker while it holds items.
    const victim = workers[0]!;
    for (;;) {
      const { body } = await apis[0]!('GET', '/api/v1/runs?limit=200');
      const succeeded = body.data.filter((run: { status: string }) => run.status === 'completed').length;
      if (succeeded >= 30) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    victim.child.kill('SIGKILL');
    await exited(victim.child);

    for (const [index, runId] of runIds.entries()) {
      const call = apis[index % 2]!;
      const run = await waitForRun(call, runId, 60_000);
      expect(run.status, `run ${index}`).toBe('completed');
      const { status, body } = await call('GET', `/api/v1/runs/${runId}/results?limit=10`);
      expect(status, JSON.stringify(body)).toBe(200);
      const urls = body.data.map((result: { url: string }) => result.url).sort();
      expect(urls, `run ${index}`).toEqual([`${site.url}/r${index}/a`, `${site.url}/r${index}/b`]);
      // Contents are blobs written by whichever worker took the page, read by either API.
      const first = body.data[0];
      const markdown = await apis[(index + 1) % 2]!(
        'GET',
        `/api/v1/runs/${runId}/results/${first.id}/content?format=markdown`,
      );
      expect(markdown.status).toBe(200);
    }
    // The killed worker's pages were fetched again by the others, yet each run has each page once.
    const refetched = [...new Set(site.requests)].filter(
      (path) => path.startsWith('/r') && site.count(path) > 1,
    );
    expect(refetched.length).toBeGreaterThan(0);
  }, 240_000);

  it('carries on through a PostgreSQL restart under load: at most 503 with Retry-After, no run lost', async () => {
    const databaseUrl = await cluster.createDatabase();
    const api1 = await start('api', databaseUrl);
    const [api2] = await Promise.all([
      start('api', databaseUrl),
      start('worker', databaseUrl),
      start('worker', databaseUrl),
    ]);
    let restarted = false;
    const figures = await runLoad({
      apis: [api1.url, api2!.url],
      apiKey: api1.apiKey!,
      pages: (run) => [`${site.url}/r${run % 200}/a`, `${site.url}/r${run % 200}/b`],
      clients: 20,
      seconds: 12,
      drainSeconds: 60,
      fault: {
        atSecond: 4,
        run: async () => {
          await cluster.restart({ downMs: 1500 });
          restarted = true;
        },
      },
    });
    console.log(`PostgreSQL restart under load: ${JSON.stringify(figures)}`);
    expect(restarted).toBe(true);
    // The outage was seen (503s), answered properly, and nothing was lost or written twice.
    expect(figures.status503).toBeGreaterThan(0);
    expect(figures, JSON.stringify(figures)).toMatchObject({
      status5xx: 0,
      status503WithoutRetryAfter: 0,
      lost: 0,
      // Which runs, why, and what the client last read of each: the first thing to look at when this fails.
      lostRuns: [],
      duplicated: 0,
    });
    expect(figures.runsFinished).toBe(figures.runsCreated);
    // Runs created after the restart finish too, through either API: the processes reconnected. (Not
    // counted from the load: on a loaded machine each client may still be on its first run by then.)
    for (const api of [api1, api2!]) {
      const call = apiClient(api.url, api1.apiKey!);
      const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/r7/a`] });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      expect((await waitForRun(call, created.body.id, 60_000)).status).toBe('completed');
    }
  }, 180_000);

  it('a cancel through one API stops the fetches of workers in other processes within a second', async () => {
    const databaseUrl = await cluster.createDatabase();
    // Long leases: only the cancel notification, not a heartbeat, can stop the fetches this fast.
    // Two items per worker, so the run's four slow pages are held by both worker processes.
    const env = { WEBDATA_LEASE_MS: '120000', WEBDATA_WORKERS: '2' };
    const api1 = await start('api', databaseUrl, env);
    const [api2] = await Promise.all([
      start('api', databaseUrl, env),
      start('worker', databaseUrl, env),
      start('worker', databaseUrl, env),
    ]);
    const first = apiClient(api1.url, api1.apiKey!);
    const second = apiClient(api2!.url, api1.apiKey!);
    const urls = [...hanging].map((path) => `${site.url}${path}`);
    const { body: created } = await first('POST', '/api/v1/crawl', { urls });
    for (;;) {
      const waiting = [...hanging].filter((path) => site.count(path) === 0);
      if (waiting.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect([...givenUp]).toEqual([]);
    const cancelledAt = Date.now();
    const cancel = await second('POST', `/api/v1/runs/${created.id}/cancel`);
    expect(cancel.status).toBe(200);
    for (;;) {
      if (givenUp.size === hanging.size) break;
      if (Date.now() - cancelledAt > 5000) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const stoppedMs = Date.now() - cancelledAt;
    expect([...hanging].filter((path) => !givenUp.has(path))).toEqual([]);
    expect(stoppedMs).toBeLessThan(1000);
    const run = (await first('GET', `/api/v1/runs/${created.id}`)).body;
    expect(run.status).toBe('cancelled');
    expect(run.stats).toMatchObject({ cancelled: 4, running: 0, succeeded: 0 });
  }, 120_000);
});
