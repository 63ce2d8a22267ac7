import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postgresForTests,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from '../src/store/postgres/throwaway-postgres.test-support.js';
import { apiClient, waitForRun } from './api-client.js';
import { FixtureSite, page } from './fixture-site.js';
import { exited, type ServerProcess, spawnServer } from './server-process.js';

/**
 * A page whose processing kills the server process (as an out-of-memory kill or a native crash
 * would: kill -9 while the page is being worked on), every time it is tried. Without a limit its
 * lease ran out and it was claimed again without end, killing each new process, and its run never
 * finished. Now it fails `crashed` after its third start while the other pages succeed; the other
 * pages, claimed alongside it each time but not started (a reserve, a host's turn), do not count;
 * and a retry of the run starts the count again.
 */
/** Each setup crawls pages of its own (the site counts requests by path). */
const pathsOf = (name: string) => ({
  poison: `/${name}/poison`,
  others: [0, 1, 2].map((n) => `/${name}/ok/${n}`),
});

let site: FixtureSite;
let dataDir: string;
let cluster: ThrowawayPostgres | null = null;
/** Poison pages that answer (after the retry's death); the others never do, their process is killed meanwhile. */
const cured = new Set<string>();
const children: ServerProcess[] = [];

const setups: [string, (dir: string) => Promise<Setup>][] = [
  [
    'SQLite',
    async (dir) => ({
      args: [],
      attempts: async () => {
        const db = new BetterSqlite3(join(dir, 'webdata.sqlite'), { readonly: true });
        try {
          const rows = db.prepare('SELECT url, attempts FROM items').all() as {
            url: string;
            attempts: number;
          }[];
          return Object.fromEntries(rows.map((row) => [new URL(row.url).pathname, row.attempts]));
        } finally {
          db.close();
        }
      },
    }),
  ],
  [
    'PostgreSQL',
    async () => {
      const url = await cluster!.createDatabase();
      return {
        args: ['--database-url', url],
        attempts: async () => {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            const { rows } = await client.query<{ url: string; attempts: number }>(
              'SELECT url, attempts FROM items',
            );
            return Object.fromEntries(rows.map((row) => [new URL(row.url).pathname, row.attempts]));
          } finally {
            await client.end();
          }
        },
      };
    },
  ],
];

beforeAll(async () => {
  const routes: ConstructorParameters<typeof FixtureSite>[0] = {};
  for (const [name] of setups) {
    const { poison, others } = pathsOf(name);
    routes[poison] = (_request, response) => {
      if (cured.has(poison))
        response.writeHead(200, { 'content-type': 'text/html' }).end(page('Poison, cured'));
    };
    for (const path of others) routes[path] = { body: page(`Page ${path}`) };
  }
  site = new FixtureSite(routes);
  await site.start();
  dataDir = mkdtempSync(join(tmpdir(), 'webdata-poison-'));
  if (postgresForTests()) cluster = await startThrowawayPostgres();
});

afterAll(async () => {
  for (const { child } of children) child.kill('SIGKILL');
  await Promise.all(children.map(({ child }) => exited(child)));
  await site?.stop();
  await cluster?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Setup {
  args: string[];
  /** Each item's `attempts` (claims) by its URL's path, read from the database. */
  attempts: () => Promise<Record<string, number>>;
}

describe.each(setups)('a page that kills its process each time (%s)', (name, makeSetup) => {
  it.skipIf(name === 'PostgreSQL' && !postgresForTests())(
    'fails crashed after its third start, the other pages succeed, and a retry starts the count again',
    async () => {
      const dir = join(dataDir, name);
      const setup = await makeSetup(dir);
      const { poison: POISON, others: OTHERS } = pathsOf(name);
      const start = async () => {
        const server = await spawnServer(dir, ['--allow-private-networks', ...setup.args], {
          env: {
            // Two slots and (SQLite) a reserve of two: the other pages are claimed with the poison page.
            WEBDATA_WORKERS: '2',
            // They wait for the host's turn behind it, so they are claimed but not started when it kills.
            WEBDATA_PER_HOST_DELAY_MS: '1000',
            // PostgreSQL: a dead process's leases run out soon (SQLite takes them back at the next start).
            WEBDATA_LEASE_MS: '1500',
          },
        });
        children.push(server);
        return server;
      };
      /** Waits for the poison page's `nth` request, lets the page be worked on a moment, and kills the process. */
      const dieOn = async (server: ServerProcess, nth: number) => {
        await until(() => site.count(POISON) >= nth, `request ${nth} of the poison page`);
        await new Promise((resolve) => setTimeout(resolve, 300));
        server.child.kill('SIGKILL');
        await exited(server.child);
      };

      let server = await start();
      const key = server.apiKey!;
      expect(key).not.toBeNull();
      const created = await apiClient(server.url, key)('POST', '/api/v1/crawl', {
        urls: [POISON, ...OTHERS].map((path) => `${site.url}${path}`),
        respect_robots: false,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      const runId = created.body.id as string;
      for (let nth = 1; nth <= 3; nth += 1) {
        await dieOn(server, nth);
        server = await start();
      }
      // The fourth process does not start it again: it fails, the others are fetched and the run ends.
      const call = apiClient(server.url, key);
      const run = await waitForRun(call, runId, 90_000);
      expect(run.status).toBe('incomplete');
      expect(run.stats).toMatchObject({ total: 4, succeeded: 3, failed: 1 });
      expect(site.count(POISON)).toBe(3);
      const { body } = await call('GET', `/api/v1/runs/${runId}/results?limit=10`);
      const byPath = new Map(
        body.data.map((result: { url: string }) => [new URL(result.url).pathname, result]),
      );
      expect(byPath.get(POISON)).toMatchObject({
        status: 'failed',
        http_status: null,
        error: { code: 'crashed', message: expect.stringMatching(/started 3 times/) },
      });
      // The operator looking for what kills the processes is told the page by name.
      const crashedLine = server
        .output()
        .split('\n')
        .find((line) => line.includes('page failed as crashed'));
      expect(crashedLine && JSON.parse(crashedLine), server.output()).toMatchObject({
        runId,
        url: `${site.url}${POISON}`,
        starts: 3,
      });
      for (const path of OTHERS) {
        expect(byPath.get(path), path).toMatchObject({ status: 'succeeded', error: null });
        expect(site.count(path), path).toBe(1);
      }
      // The other pages were claimed more times than the limit (each process claimed them with the poison
      // page), yet only starts count.
      const attempts = await setup.attempts();
      expect(
        Math.max(...OTHERS.map((path) => attempts[path] ?? 0)),
        JSON.stringify(attempts),
      ).toBeGreaterThan(3);

      // A retry gives it fresh starts: one more death is not its end, and cured it succeeds.
      expect((await call('POST', `/api/v1/runs/${runId}/retry`)).status).toBe(202);
      await dieOn(server, 4);
      cured.add(POISON);
      server = await start();
      const retried = await waitForRun(apiClient(server.url, key), runId, 90_000);
      expect(retried.status).toBe('completed');
      expect(retried.stats).toMatchObject({ total: 4, succeeded: 4 });
      expect(site.count(POISON)).toBe(5);
      server.child.kill('SIGTERM');
      await exited(server.child);
    },
    300_000,
  );
});
