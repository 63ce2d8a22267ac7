/**
 * `pnpm --filter @webdata/server bench`: prints, on this machine,
 * 1. requests/s and p99 of GET /runs/{id} with a key, against a bare Fastify
 *    route measured in the same run (the floor is half of it);
 * 2. run creations/s (floor 1,000/s);
 * 3. crawl pages/s on a generated 2,000-page local site, with the server's RSS peak;
 * then the extraction, deep-crawl, docs (real manuals against Crawlee and bare playwright-core:
 * bench/docs-bench.ts), search and extraction-quality benchmarks. `bench docs` runs only the docs
 * one, `bench search`
 * runs only the search one (quality/search/bench.ts; `bench search latency` only its latency parts,
 * synthetic and real pages), `bench extract` only the extraction
 * quality one (quality/extract/run.ts), `bench attack` only issue 16's reproductions measured from
 * outside the server (bench/attack-bench.ts), `bench api` only 1–3.
 * The servers run as child processes so the load generator has its own core.
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiClient, waitForRun } from '../test/api-client.js';
import { FixtureSite, generatedSite } from '../test/fixture-site.js';
import { exited, spawnServer } from '../test/server-process.js';
import { type LoadFigures, load } from './load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CRAWL_PAGES = Number(process.env.BENCH_CRAWL_PAGES ?? 2000);
/** Rounds of the GET comparison: each a leg of the bare route and one of ours, the first alternating. */
const GET_ROUNDS = Math.max(1, Number(process.env.BENCH_GET_ROUNDS ?? 4));

/** One figure for several legs of the same target: mean req/s, the median leg's p50, the worst p99. */
function combinedLoad(legs: readonly LoadFigures[]): LoadFigures {
  const sorted = legs.map((leg) => leg.p50Ms).sort((a, b) => a - b);
  return {
    requestsPerSecond: Math.round(legs.reduce((sum, leg) => sum + leg.requestsPerSecond, 0) / legs.length),
    p50Ms: sorted[Math.floor(sorted.length / 2)] ?? 0,
    p99Ms: Math.max(...legs.map((leg) => leg.p99Ms)),
    errors: legs.reduce((sum, leg) => sum + leg.errors, 0),
    non2xx: legs.reduce((sum, leg) => sum + leg.non2xx, 0),
  };
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function bareFastify(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./bare-fastify.ts', import.meta.url))],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening on (\S+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** 1–3: the API's GET against a bare Fastify route, run creations, and a generated site's crawl. */
async function benchApi() {
  const site = new FixtureSite(generatedSite(CRAWL_PAGES, 4));
  await site.start();
  const dataDir = mkdtempSync(join(tmpdir(), 'webdata-bench-'));
  process.env.WEBDATA_RATE_LIMIT = '1000000';
  process.env.WEBDATA_MAX_ACTIVE_RUNS = '1000000';
  process.env.WEBDATA_RATE_BURST = '1000000';
  try {
    // 1. GET /runs/{id}: ours against a bare Fastify route, in alternating rounds (which goes
    // first alternates too): on a shared machine one leg each mostly measured the load of the
    // moment (the same build read 0.58, 0.34 and 0.58 in three rounds back to back).
    const bare = await bareFastify();
    process.env.WEBDATA_RUN_WORKERS = 'false';
    const idle = await spawnServer(join(dataDir, 'api'), ['--allow-private-networks'], { built: true });
    const call = apiClient(idle.url, idle.apiKey!);
    const run = (await call('POST', '/api/v1/crawl', { urls: [`${site.url}/p/0`] })).body;
    const legSeconds = Math.max(1, Math.round((2 * SECONDS) / GET_ROUNDS));
    const bareLeg = () =>
      load({ url: `${bare.url}/api/v1/runs/run_bench`, seconds: legSeconds, connections: 32 });
    const ourLeg = () =>
      load({
        url: `${idle.url}/api/v1/runs/${run.id}`,
        seconds: legSeconds,
        connections: 32,
        headers: { 'x-api-key': idle.apiKey! },
      });
    const rounds: { baseline: LoadFigures; ours: LoadFigures }[] = [];
    for (let round = 0; round < GET_ROUNDS; round += 1) {
      if (round % 2 === 0) {
        const baseline = await bareLeg();
        rounds.push({ baseline, ours: await ourLeg() });
      } else {
        const ours = await ourLeg();
        rounds.push({ baseline: await bareLeg(), ours });
      }
    }
    await bare.stop();
    const baseline = combinedLoad(rounds.map((r) => r.baseline));
    const ours = combinedLoad(rounds.map((r) => r.ours));

    // 2. Run creations (workers off: this measures the API and the store, not fetching).
    const creations = await load({
      url: `${idle.url}/api/v1/crawl`,
      method: 'POST',
      seconds: SECONDS,
      connections: 32,
      headers: { 'x-api-key': idle.apiKey!, 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [`${site.url}/p/1`, `${site.url}/p/2`] }),
    });
    idle.child.kill('SIGTERM');
    await exited(idle.child);

    // 3. Crawl pages/s on a generated local site.
    process.env.WEBDATA_RUN_WORKERS = 'true';
    process.env.WEBDATA_WORKERS = '32';
    process.env.WEBDATA_PER_HOST_CONCURRENCY = '32';
    const crawler = await spawnServer(join(dataDir, 'crawl'), ['--allow-private-networks'], { built: true });
    const crawlCall = apiClient(crawler.url, crawler.apiKey!);
    const started = performance.now();
    const crawl = (await crawlCall('POST', '/api/v1/crawl', { url: `${site.url}/p/0`, limit: CRAWL_PAGES }))
      .body;
    const finished = await waitForRun(crawlCall, crawl.id, 600_000);
    const seconds = (performance.now() - started) / 1000;
    const rss = peakRssMb(crawler.child.pid!);
    crawler.child.kill('SIGTERM');
    await exited(crawler.child);

    const ratio = ours.requestsPerSecond / baseline.requestsPerSecond;
    console.log('\nwebdata server benchmark');
    console.log('GET /runs/{id}            req/s      p50 ms   p99 ms');
    console.log(
      `  bare Fastify route  ${String(baseline.requestsPerSecond).padStart(9)} ${String(baseline.p50Ms).padStart(10)} ${String(baseline.p99Ms).padStart(8)}`,
    );
    console.log(
      `  webdata (with key)  ${String(ours.requestsPerSecond).padStart(9)} ${String(ours.p50Ms).padStart(10)} ${String(ours.p99Ms).padStart(8)}`,
    );
    console.log(
      `  ratio webdata / bare: ${ratio.toFixed(2)} (floor 0.50; mean req/s of ${GET_ROUNDS} alternating rounds of ${legSeconds} s a leg, each round's ratio: ${rounds.map((r) => (r.ours.requestsPerSecond / r.baseline.requestsPerSecond).toFixed(2)).join(', ')})${ours.non2xx ? `  non-2xx: ${ours.non2xx}` : ''}`,
    );
    console.log(
      `run creations/s: ${creations.requestsPerSecond} (floor 1000), p99 ${creations.p99Ms} ms${creations.non2xx ? `, non-2xx: ${creations.non2xx}` : ''}`,
    );
    console.log(
      `crawl: ${finished.stats.succeeded}/${CRAWL_PAGES} pages (${finished.status}) in ${seconds.toFixed(1)} s = ${(finished.stats.succeeded / seconds).toFixed(0)} pages/s; server RSS peak ${rss} MB`,
    );
  } finally {
    await site.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'docs') {
  await (await import('./docs-bench.js')).benchDocs();
} else if (process.argv[2] === 'search') {
  await (await import('../quality/search/bench.js')).benchSearchAll({
    built: true,
    latencyOnly: process.argv[3] === 'latency',
  });
} else if (process.argv[2] === 'extract') {
  await (await import('../quality/extract/run.js')).runExtractionQuality();
} else if (process.argv[2] === 'api') {
  await benchApi();
} else if (process.argv[2] === 'attack') {
  await (await import('./attack-bench.js')).benchAttack();
} else {
  await benchApi();
  await (await import('./extract-bench.js')).benchExtractionAndScreenshots();
  await (await import('./deep-crawl-bench.js')).benchDeepCrawl();
  await (await import('./docs-bench.js')).benchDocs();
  await (await import('./attack-bench.js')).benchAttack();
  await (await import('../quality/search/bench.js')).benchSearchAll({ built: true });
  await (await import('../quality/extract/run.js')).runExtractionQuality();
}
