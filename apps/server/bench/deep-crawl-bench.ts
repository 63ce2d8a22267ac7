/**
 * Deep-crawl benchmark (`npx tsx bench/deep-crawl-bench.ts`, or part of
 * `pnpm --filter @webdata/server bench`). Prints, on this machine,
 * deep-crawl pages/s over a generated 5,000-page local site and the
 * crawler's RSS peak, ours (the real server: fetch, convert, index and
 * persist every page) against Crawlee's CheerioCrawler (fetch, parse,
 * enqueue links; nothing stored) at the same concurrency. The site, our
 * server and Crawlee each run in their own process, one after the other.
 * (Search latency and quality: quality/search/.)
 *
 * Floors: ours ≥ Crawlee in pages/s; our server's RSS peak under 300 MB.
 *
 * Settings: BENCH_DEEP_CRAWL_PAGES (5000), BENCH_DEEP_CRAWL_CONCURRENCY (16),
 * BENCH_CPU_PROF_DIR (write a CPU profile of our server there), BENCH_SERVER_MAIN (run that built
 * `main.js` instead of this package's: bench/ab-crawl.ts compares two builds with it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type ApiCall, apiClient } from '../test/api-client.js';
import { exited, serverCommand } from '../test/server-process.js';
import {
  CHILD_DEADLINE_MS,
  cpuMs,
  rssMb,
  type StartedChild,
  startChild,
  stopChild,
  threadCpuMs,
} from './child-process.js';

const HERE = fileURLToPath(import.meta.url);
const SITE_SCRIPT = fileURLToPath(new URL('./deep-crawl-site.ts', import.meta.url));
const RSS_FLOOR_MB = 300;
/** A crawl that takes longer than this is reported as stuck rather than waited for. */
const CRAWL_DEADLINE_MS = CHILD_DEADLINE_MS;

/** What one crawler did over the site. */
export interface CrawlFigures {
  /** Pages the crawler reports as done (ours: succeeded results; Crawlee: handled requests). */
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  /** Resident set just before the crawl started (code loaded, nothing crawled), in MB. */
  rssIdleMb: number;
  rssPeakMb: number;
  /** CPU time the crawler's process used during the crawl (all threads), in ms. */
  cpuMs: number;
  /** CPU time the process used from its start until it could take the crawl (ours only), in ms. */
  startupCpuMs?: number;
  /**
   * The crawl's CPU by thread (ours only), in ms: the main thread, the busiest
   * other thread (the converter thread in a deep crawl) and all the others
   * together (V8's compiler and GC helpers, libuv's pool).
   */
  threadCpuMs?: { main: number; busiestOther: number; others: number };
}

/**
 * Our server, in its own process (started like test/server-process.ts does,
 * plus `--cpu-prof` when asked: Node refuses it in NODE_OPTIONS), deep-crawls the site.
 */
export async function crawlWithServer(
  startUrl: string,
  pages: number,
  concurrency: number,
  options: {
    /** Called with the finished run while the server still runs (to read its results). */
    inspect?: (call: ApiCall, runId: string) => Promise<void>;
    /** Request fields beside url, max_depth, limit and collection. */
    request?: Record<string, unknown>;
  } = {},
): Promise<CrawlFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webdata-deep-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WEBDATA_LOG_LEVEL: 'warn',
    WEBDATA_RUN_WORKERS: 'true',
    WEBDATA_WORKERS: String(concurrency),
    WEBDATA_PER_HOST_CONCURRENCY: String(concurrency),
    WEBDATA_RATE_LIMIT: '1000000',
    WEBDATA_MAX_ACTIVE_RUNS: '1000000',
    WEBDATA_RATE_BURST: '1000000',
    WEBDATA_DEEP_CRAWL_CEILING: String(Math.max(pages, 10_000)),
  };
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  // BENCH_SERVER_NODE_ARGS: more node options for the server's process (space-separated; ab-crawl.ts sets them per build).
  const nodeArgs = [
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ];
  // The built server, as users run it (`pnpm bench` builds first); the sources through tsx otherwise,
  // and when profiling (the profile then names source files rather than one bundle).
  // BENCH_SERVER_MAIN: another build's main.js (a copy of dist/ elsewhere), to measure two builds alternately.
  const main = process.env.BENCH_SERVER_MAIN;
  const args = [
    ...(main ? [main] : serverCommand(!profileDir)),
    'start',
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--allow-private-networks',
  ];
  let server: StartedChild | undefined;
  try {
    server = await startChild(
      args,
      /listening on (http:\/\/\S+)[\s\S]*^API key: (wd_key_[0-9a-z]{26}_[A-Za-z0-9_-]{32})$/m,
      env,
      nodeArgs,
      false,
    );
    const call = apiClient(server.match[1]!, server.match[2]!);
    const pid = server.child.pid!;
    const rssIdleMb = rssMb(pid, 'VmRSS');
    const cpuBefore = cpuMs(pid);
    const threadsBefore = threadCpuMs(pid);
    const started = Date.now();
    const created = await call('POST', '/api/v1/deep-crawl', {
      url: startUrl,
      max_depth: 20,
      limit: pages,
      collection: 'bench',
      ...options.request,
    });
    if (created.status !== 202) throw new Error(`deep crawl refused: ${JSON.stringify(created.body)}`);
    // Plain polls a few times a second: a long poll (`?wait=`) answers at every change of the run, i.e.
    // at every committed batch of pages, and would load the server with as many requests. The crawl's
    // end is then read from the run itself (`finished_at`, written in the transaction that settles it,
    // on this machine's clock) rather than from the poll that saw it: up to a poll interval (100 ms,
    // 5 % of a 2 s crawl) later. Crawlee's time ends when its `run()` returns, so both are timed from
    // the start of the crawl to its last page's end.
    let run = created.body;
    const deadline = Date.now() + CRAWL_DEADLINE_MS;
    while (!['completed', 'incomplete', 'failed', 'cancelled'].includes(run.status)) {
      if (Date.now() > deadline)
        throw new Error(
          `our deep crawl still ${run.status} after ${CRAWL_DEADLINE_MS} ms: ${JSON.stringify(run.stats)}`,
        );
      await sleep(100);
      run = (await call('GET', `/api/v1/runs/${run.id}`)).body;
    }
    const finishedAt = run.finished_at ? Date.parse(run.finished_at) : Date.now();
    const seconds = (finishedAt - started) / 1000;
    const usedCpuMs = cpuMs(pid) - cpuBefore;
    const byThread = [...threadCpuMs(pid)].map(
      ([tid, ms]) => [tid, ms - (threadsBefore.get(tid) ?? 0)] as const,
    );
    const main = byThread.find(([tid]) => tid === pid)?.[1] ?? 0;
    const others = byThread.filter(([tid]) => tid !== pid).map(([, ms]) => ms);
    const busiestOther = Math.max(0, ...others);
    if (process.env.BENCH_THREADS_VERBOSE)
      console.log(
        `threads (tid: start-up ms, crawl ms): ${byThread.map(([tid, ms]) => `${tid - pid}: ${threadsBefore.get(tid) ?? '-'}, ${ms}`).join('; ')}`,
      );
    const rssPeakMb = rssMb(pid);
    if (run.status !== 'completed')
      console.warn(`our deep crawl ended ${run.status}: ${JSON.stringify(run.stats)}`);
    await options.inspect?.(call, run.id);
    return {
      pages: run.stats.succeeded,
      seconds,
      pagesPerSecond: run.stats.succeeded / seconds,
      rssIdleMb,
      rssPeakMb,
      cpuMs: usedCpuMs,
      startupCpuMs: cpuBefore,
      threadCpuMs: { main, busiestOther, others: others.reduce((sum, ms) => sum + ms, 0) - busiestOther },
    };
  } finally {
    if (server) await stopChild(server.child);
    if (server && process.env.BENCH_SERVER_OUTPUT)
      writeFileSync(process.env.BENCH_SERVER_OUTPUT, server.output());
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Crawlee's CheerioCrawler, in its own process, crawls the site. */
export async function crawlWithCrawlee(startUrl: string, concurrency: number): Promise<CrawlFigures> {
  const storage = mkdtempSync(join(tmpdir(), 'webdata-crawlee-'));
  try {
    const { child, match } = await startChild(
      [HERE, '--crawlee-child', startUrl, String(concurrency)],
      /^crawlee-result (\{.*\})$/m,
      {
        ...process.env,
        CRAWLEE_STORAGE_DIR: storage,
        CRAWLEE_PERSIST_STORAGE: 'false',
        CRAWLEE_WRITE_METADATA: 'false',
        CRAWLEE_PURGE_ON_START: 'true',
      },
    );
    // The figures are in; a child that does not wind down by itself is not waited for.
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited(child);
    clearTimeout(timer);
    return JSON.parse(match[1]!) as CrawlFigures;
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
}

/** The Crawlee child: crawls, then prints its figures (with its own RSS peak) as one line. */
async function crawleeChild(startUrl: string, concurrency: number): Promise<void> {
  const { CheerioCrawler, Configuration, log } = await import('@crawlee/cheerio');
  log.setLevel(log.LEVELS.ERROR);
  const config = new Configuration({
    persistStorage: false,
    storageClientOptions: { persistStorage: false, writeMetadata: false },
    // System snapshots steer autoscaling; concurrency is fixed here, so take them rarely.
    systemInfoIntervalMillis: 60_000,
    persistStateIntervalMillis: 600_000,
  });
  let handled = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      // Left at the default 1 … 10 otherwise; the pool still runs fewer when the frontier is narrow.
      autoscaledPoolOptions: { desiredConcurrency: concurrency },
      // No maxRequestsPerCrawl: the site has fewer pages than `pages`, and with a budget set Crawlee 3.18
      // sleeps a second in every enqueueLinks once the budget runs short (waitBetweenBatchesMillis),
      // which would measure that pause instead of crawling.
      maxRequestRetries: 0,
      async requestHandler({ enqueueLinks }) {
        handled += 1;
        await enqueueLinks({ strategy: 'same-hostname' });
      },
    },
    config,
  );
  const rssIdleMb = rssMb('self', 'VmRSS');
  const cpuBefore = cpuMs('self');
  const started = performance.now();
  await crawler.run([startUrl]);
  const seconds = (performance.now() - started) / 1000;
  const usedCpuMs = cpuMs('self') - cpuBefore;
  const figures: CrawlFigures = {
    pages: handled,
    seconds,
    pagesPerSecond: handled / seconds,
    rssIdleMb,
    rssPeakMb: rssMb('self'),
    cpuMs: usedCpuMs,
  };
  console.log(`crawlee-result ${JSON.stringify(figures)}`);
  await crawler.teardown();
}

/**
 * Runs the deep-crawl benchmark (ours against Crawlee on one generated
 * site) and prints its figures.
 */
export async function benchDeepCrawl(): Promise<void> {
  const pages = Number(process.env.BENCH_DEEP_CRAWL_PAGES ?? 5000);
  const concurrency = Number(process.env.BENCH_DEEP_CRAWL_CONCURRENCY ?? 16);
  const site = await startChild([SITE_SCRIPT, String(pages)], /listening on (http:\/\/\S+)/);
  let ours: CrawlFigures;
  let crawlee: CrawlFigures;
  try {
    const siteUrl = site.match[1]!;
    ours = await crawlWithServer(`${siteUrl}/`, pages, concurrency);
    crawlee = await crawlWithCrawlee(`${siteUrl}/`, concurrency);
  } finally {
    site.child.kill('SIGTERM');
    await exited(site.child);
  }

  const row = (name: string, f: CrawlFigures) =>
    `  ${name.padEnd(24)} ${String(f.pages).padStart(6)} ${f.seconds.toFixed(1).padStart(8)} ${f.pagesPerSecond.toFixed(0).padStart(8)} ${String(f.rssIdleMb).padStart(8)} ${String(f.rssPeakMb).padStart(8)}`;
  const ratio = ours.pagesPerSecond / crawlee.pagesPerSecond;
  console.log(`\ndeep crawl of a generated ${pages}-page local site, concurrency ${concurrency}`);
  console.log('                            pages        s  pages/s  idle MB  peak MB');
  console.log(row('webdata (server)', ours));
  console.log(row('Crawlee CheerioCrawler', crawlee));
  console.log(
    `  ratio webdata / Crawlee: ${ratio.toFixed(2)} (floor 1.00) ${ratio >= 1 ? 'ok' : 'BELOW FLOOR'}; server RSS peak ${ours.rssPeakMb} MB (floor < ${RSS_FLOOR_MB}) ${ours.rssPeakMb < RSS_FLOOR_MB ? 'ok' : 'ABOVE FLOOR'}`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === '--crawlee-child') {
    await crawleeChild(process.argv[3]!, Number(process.argv[4]));
  } else {
    await benchDeepCrawl();
  }
}
