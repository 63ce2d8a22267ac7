/**
 * `pnpm --filter @webdata/server bench:scale-out` (run it under
 * `flock /work/heavy.lock` on a shared machine): the same load against the
 * embedded setup (one process, SQLite) and the scale-out setup (two API and
 * three worker processes on one PostgreSQL, a throwaway cluster on
 * 127.0.0.1), side by side: 100 clients creating crawl runs, long-polling
 * them and reading their results for BENCH_SECONDS each (default 25, so the
 * two loads stay within 60 s), a PostgreSQL restart half-way through the
 * PostgreSQL load. Prints throughput, latency, 5xx and lost/duplicated results.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startThrowawayPostgres } from '../src/store/postgres/throwaway-postgres.test-support.js';
import { FixtureSite, page } from '../test/fixture-site.js';
import { type RunLoadFigures, runLoad } from '../test/run-load.js';
import { exited, type ServerProcess, spawnServer } from '../test/server-process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 25);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100);
const PAGES = 500;

const ENV = {
  WEBDATA_RATE_LIMIT: '1000000',
  WEBDATA_MAX_ACTIVE_RUNS: '1000000',
  WEBDATA_RATE_BURST: '1000000',
  WEBDATA_WORKERS: '16',
  WEBDATA_PER_HOST_CONCURRENCY: '64',
  WEBDATA_LEASE_MS: '10000',
};

async function main() {
  const routes: ConstructorParameters<typeof FixtureSite>[0] = {};
  for (let i = 0; i < PAGES; i++) routes[`/p/${i}`] = { body: page(`Page ${i}`, [`/p/${(i + 1) % PAGES}`]) };
  const site = new FixtureSite(routes);
  await site.start();
  const pages = (run: number) => [0, 1].map((k) => `${site.url}/p/${(run * 2 + k) % PAGES}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'webdata-scale-bench-'));
  const children: ServerProcess[] = [];
  const stopAll = async () => {
    for (const { child } of children.splice(0)) {
      child.kill('SIGTERM');
      await exited(child);
    }
  };
  const cluster = await startThrowawayPostgres();
  try {
    // Embedded: one process, API and workers, SQLite.
    const single = await spawnServer(join(dataDir, 'sqlite'), ['--allow-private-networks'], {
      built: true,
      env: ENV,
    });
    children.push(single);
    const sqlite = await runLoad({
      apis: [single.url],
      apiKey: single.apiKey!,
      pages,
      clients: CLIENTS,
      seconds: SECONDS,
    });
    await stopAll();

    // Scale-out: 2 API + 3 worker processes on one PostgreSQL, restarted half-way.
    const databaseUrl = await cluster.createDatabase();
    const shared = join(dataDir, 'postgres');
    const start = async (role: string) => {
      const child = await spawnServer(
        shared,
        ['--role', role, '--database-url', databaseUrl, '--allow-private-networks'],
        {
          built: true,
          env: ENV,
        },
      );
      children.push(child);
      return child;
    };
    const api1 = await start('api');
    const [api2] = await Promise.all([start('api'), start('worker'), start('worker'), start('worker')]);
    let restartMs = 0;
    const postgres = await runLoad({
      apis: [api1.url, api2!.url],
      apiKey: api1.apiKey!,
      pages,
      clients: CLIENTS,
      seconds: SECONDS,
      fault: {
        atSecond: SECONDS / 2,
        run: async () => {
          const t0 = performance.now();
          await cluster.restart({ downMs: 1000 });
          restartMs = Math.round(performance.now() - t0);
        },
      },
    });
    await stopAll();
    print(sqlite, postgres, restartMs);
  } finally {
    await stopAll();
    await cluster.stop();
    await site.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(sqlite: RunLoadFigures, postgres: RunLoadFigures, restartMs: number) {
  const rows: [string, (f: RunLoadFigures) => string | number][] = [
    ['clients', (f) => f.clients],
    ['load seconds (incl. drain)', (f) => f.seconds],
    ['runs created', (f) => f.runsCreated],
    ['runs finished, every page once', (f) => f.runsFinished],
    ['runs finished / s', (f) => (f.runsFinished / f.seconds).toFixed(1)],
    ['requests / s', (f) => (f.requests / f.seconds).toFixed(0)],
    ['create/read p50 ms', (f) => f.p50Ms],
    ['create/read p99 ms', (f) => f.p99Ms],
    ['run created → seen finished p50 ms', (f) => f.runP50Ms],
    ['run created → seen finished p99 ms', (f) => f.runP99Ms],
    ['5xx other than 503 (floor 0)', (f) => f.status5xx],
    [
      '503 (each with Retry-After)',
      (f) =>
        `${f.status503}${f.status503WithoutRetryAfter ? ` (${f.status503WithoutRetryAfter} without!)` : ''}`,
    ],
    ['connection errors', (f) => f.transportErrors],
    ['lost runs/results (floor 0)', (f) => f.lost],
    ['duplicated results (floor 0)', (f) => f.duplicated],
  ];
  console.log('\nscale-out load: the same clients against both setups (127.0.0.1)');
  console.log(
    `${'figure'.padEnd(38)}${'SQLite, 1 process'.padStart(20)}${'PostgreSQL, 2 API + 3 workers'.padStart(32)}`,
  );
  for (const [name, value] of rows) {
    console.log(
      `${name.padEnd(38)}${String(value(sqlite)).padStart(20)}${String(value(postgres)).padStart(32)}`,
    );
  }
  const ratio = postgres.runsFinished / postgres.seconds / (sqlite.runsFinished / sqlite.seconds);
  console.log(`ratio PostgreSQL / SQLite, runs finished per second: ${ratio.toFixed(2)}`);
  console.log(
    `PostgreSQL restarted at ${SECONDS / 2} s of the load (down ${restartMs} ms incl. stop and start)`,
  );
  for (const [setup, figures] of [
    ['SQLite', sqlite],
    ['PostgreSQL', postgres],
  ] as const) {
    for (const lost of figures.lostRuns) {
      console.log(
        `lost on ${setup}: ${lost.runId} at ${lost.atSecond} s, ${lost.reason}: ${JSON.stringify(lost.last)}`,
      );
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
