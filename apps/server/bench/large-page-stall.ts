/**
 * How long one very large page holds the server's event loop
 * (`npx tsx bench/large-page-stall.ts <page.html | generated> <a/main.js> [<b/main.js>] [rounds]`):
 * a fresh server (a built `main.js`, as users run it) crawls the page, served
 * from 127.0.0.1, in three formats (`BENCH_STALL_FORMATS`, comma-separated) into a
 * collection (so it is indexed too), `BENCH_STALL_CRAWLS` times (3 by default),
 * while `/healthz` is probed every 10 ms, one probe at a time. `generated` is
 * ~9 MB of prose in paragraphs of 200 words, most of them different (the
 * Node.js manual's 8.4 MB `all.html` fails as `too_large` in three formats:
 * its tree does not fit the converter thread's heap). Printed per crawl: the longest probe, the probes
 * over 100 ms, and the longest hold of this (the probing) process's own loop,
 * which is not the server's; then the same for a quiet stretch before the
 * crawls (the same run's baseline). With two builds the rounds alternate
 * (A then B, then B then A), each in a fresh server. `BENCH_STALL_QUERIES` (`|`-separated): after
 * the crawls, each query is asked of the collection `BENCH_STALL_SEARCH_TIMES` times (5 by default)
 * while `/healthz` is probed: printed, the searches' median and longest time and the probes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiClient, waitForRun } from '../test/api-client.js';
import { rssMb, startChild, stopChild } from './child-process.js';

const PROBE_EVERY_MS = 10;
const QUIET_MS = 2_000;

interface Stretch {
  probes: number;
  longest: number;
  over100: number;
  ownHold: number;
}

/** Probes `/healthz` every 10 ms until `done` settles. */
async function probeWhile(base: string, done: Promise<unknown>): Promise<Stretch> {
  let finished = false;
  done.then(
    () => (finished = true),
    () => (finished = true),
  );
  const own = monitorEventLoopDelay({ resolution: 5 });
  own.enable();
  const latencies: number[] = [];
  while (!finished) {
    const sent = performance.now();
    const response = await fetch(`${base}/healthz`);
    await response.text();
    latencies.push(performance.now() - sent);
    if (response.status !== 200) throw new Error(`probe answered ${response.status}`);
    await sleep(PROBE_EVERY_MS);
  }
  own.disable();
  return {
    probes: latencies.length,
    longest: Math.max(...latencies),
    over100: latencies.filter((ms) => ms > 100).length,
    ownHold: own.max / 1e6,
  };
}

const show = (s: Stretch) =>
  `${String(s.probes).padStart(4)} probes, longest ${s.longest.toFixed(0).padStart(4)} ms, over 100 ms ${s.over100}, own loop held up to ${s.ownHold.toFixed(0)} ms`;

async function round(mainJs: string, pageUrl: string, crawls: number): Promise<number[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webdata-stall-bench-'));
  const server = await startChild(
    [mainJs, 'start', '--port', '0', '--data-dir', dataDir, '--allow-private-networks'],
    /listening on (http:\/\/\S+)[\s\S]*^API key: (wd_key_[0-9a-z]{26}_[A-Za-z0-9_-]{32})$/m,
    { ...process.env, WEBDATA_LOG_LEVEL: 'warn', WEBDATA_RUN_WORKERS: 'true' },
    // BENCH_STALL_NODE_ARGS: node options for the server (`--cpu-prof --cpu-prof-dir=…` to see where a hold goes).
    (process.env.BENCH_STALL_NODE_ARGS ?? '').split(' ').filter(Boolean),
    false,
  );
  const longest: number[] = [];
  try {
    const base = server.match[1]!;
    const call = apiClient(base, server.match[2]!);
    console.log(`  quiet      ${show(await probeWhile(base, sleep(QUIET_MS)))}`);
    for (let i = 0; i < crawls; i += 1) {
      const created = await call('POST', '/api/v1/crawl', {
        urls: [`${pageUrl}?copy=${i}`],
        formats: (process.env.BENCH_STALL_FORMATS ?? 'markdown,html,text').split(','),
        collection: 'stall',
      });
      if (created.status !== 202) throw new Error(`crawl refused: ${JSON.stringify(created.body)}`);
      const run = waitForRun(call, created.body.id, 120_000);
      const stretch = await probeWhile(base, run);
      const { status, stats } = await run;
      const rss = `RSS ${rssMb(server.child.pid!, 'VmRSS')} MB, peak ${rssMb(server.child.pid!)} MB`;
      console.log(
        `  crawl ${i + 1}    ${show(stretch)}  (run ${status}, ${stats.succeeded} succeeded; ${rss})`,
      );
      if (status !== 'completed') {
        const results = await call('GET', `/api/v1/runs/${created.body.id}/results`);
        console.log(`  failed: ${JSON.stringify(results.body.data?.[0]?.error)}`);
      }
      longest.push(stretch.longest);
    }
    const queries = (process.env.BENCH_STALL_QUERIES ?? '').split('|').filter(Boolean);
    if (queries.length > 0) {
      // The collection now holds the page (each crawl's copy): each query asked in turn, while probed.
      const times = Number(process.env.BENCH_STALL_SEARCH_TIMES ?? 5);
      const took: number[] = [];
      const asked = (async () => {
        for (let t = 0; t < times; t += 1) {
          for (const query of queries) {
            const sent = performance.now();
            const answer = await call('POST', '/api/v1/search', { query, collection: 'stall', limit: 10 });
            took.push(performance.now() - sent);
            if (answer.status !== 200) throw new Error(`search answered ${answer.status}`);
            if (t === 0)
              console.log(
                `  search "${query}": ${answer.body.data.length} hits, first ${JSON.stringify(answer.body.data[0]?.snippet?.slice(0, 80))}`,
              );
          }
        }
      })();
      const stretch = await probeWhile(base, asked);
      await asked;
      took.sort((a, b) => a - b);
      const rss = `RSS ${rssMb(server.child.pid!, 'VmRSS')} MB, peak ${rssMb(server.child.pid!)} MB`;
      console.log(
        `  searches   ${show(stretch)}; ${took.length} searches, median ${took[took.length >> 1]!.toFixed(0)} ms, longest ${took.at(-1)!.toFixed(0)} ms (${rss})`,
      );
    }
  } finally {
    await stopChild(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return longest;
}

/** About `chars` characters of HTML prose: paragraphs of 200 words, most of them different. */
function generatedPage(chars: number): string {
  const paragraphs: string[] = [];
  for (let p = 0, length = 0; length < chars; p += 1) {
    const words = Array.from({ length: 200 }, (_, w) => `w${((p * 200 + w) * 7919) % 100_003}`);
    const paragraph = `${p % 20 === 0 ? `<h2>Part ${p / 20}</h2>\n` : ''}<p>${words.join(' ')}</p>`;
    paragraphs.push(paragraph);
    length += paragraph.length + 1;
  }
  return `<!doctype html><html><head><title>Generated</title></head><body><main><h1>Generated</h1>\n${paragraphs.join('\n')}</main></body></html>`;
}

async function main(): Promise<void> {
  const [page, mainA, mainB, roundsText] = process.argv.slice(2);
  if (!page || !mainA)
    throw new Error('usage: large-page-stall.ts <page.html> <a/main.js> [<b/main.js>] [rounds]');
  const body = page === 'generated' ? Buffer.from(generatedPage(9_000_000)) : readFileSync(page);
  const site = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/page.html`;
  const crawls = Number(process.env.BENCH_STALL_CRAWLS ?? 3);
  const rounds = Number(roundsText ?? 2);
  const builds = mainB ? { A: mainA, B: mainB } : { A: mainA };
  const worst: Record<string, number[]> = {};
  try {
    for (let r = 0; r < rounds; r += 1) {
      const names = Object.keys(builds);
      for (const name of r % 2 === 0 ? names : names.reverse()) {
        console.log(`round ${r + 1} ${name} (${builds[name as 'A']})`);
        const longest = await round(builds[name as 'A']!, pageUrl, crawls);
        worst[name] = [...(worst[name] ?? []), ...longest];
      }
    }
  } finally {
    site.close();
  }
  for (const [name, values] of Object.entries(worst))
    console.log(`${name}: longest probe per crawl ${values.map((v) => v.toFixed(0)).join(', ')} ms`);
}

await main();
