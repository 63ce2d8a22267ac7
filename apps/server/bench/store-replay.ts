/**
 * The main thread's per-page work after conversion, without the network and
 * the converter (`npx tsx bench/store-replay.ts [manual root] [rounds]`): a
 * deep crawl of a real manual replayed against a fresh SQLite store in a
 * temporary directory — claims two items at a time and writes outcomes three
 * to a transaction, as the worker pool does on this machine's crawls, each
 * outcome built by `processItem` (links discovered, aliases, search document)
 * from the page converted beforehand. Prints this thread's CPU ms per page
 * for the claims, `processItem` and the writes (a focused measure: one deep
 * crawl's CPU a page moves by ±3 ms on the shared machine, this by a tenth).
 *
 * `BENCH_STORE_PRAGMAS="a = 1; b = 2"` sets pragmas (or runs statements: `DROP TRIGGER …` to leave
 * an index out) after the store opens, every other round. `BENCH_REPLAY_STATEMENTS=1` also prints
 * the CPU ms a page of each SQL statement (`COMMIT` included) and how often it ran a page, over
 * all rounds, and the commits' wall time (a commit that checkpoints the WAL waits for its fsyncs
 * there).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_PARAMS } from '@webdata/contract';
import { defaultConfig } from '../src/config.js';
import { convertPage } from '../src/content/convert-page.js';
import type { ConvertedPage } from '../src/content/types.js';
import { normalizeUrl } from '../src/crawl/url/index.js';
import { type PipelineDeps, processItem } from '../src/engine/process-item.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { ClaimedItem, CompletedItem } from '../src/store/store.js';

const ORIGIN = 'http://127.0.0.1:8000';
const BATCH = Number(process.env.BENCH_REPLAY_BATCH ?? 3);
const CLAIM = Number(process.env.BENCH_REPLAY_CLAIM ?? 2);

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** CPU ms of each statement by its SQL, and every COMMIT's wall ms (`BENCH_REPLAY_STATEMENTS`). */
const statementMs = new Map<string, number>();
const commitWallMs: number[] = [];
/** How many times each statement ran. */
const statementRuns = new Map<string, number>();

/** Times every statement run through better-sqlite3 (its prototype is shared by all statements). */
function timeStatements(store: SqliteStore): void {
  const prototype = Object.getPrototypeOf(store.db.prepare('SELECT 1')) as Record<string, unknown>;
  for (const method of ['run', 'get', 'all']) {
    const original = prototype[method] as (...args: unknown[]) => unknown;
    prototype[method] = function (this: { source: string }, ...args: unknown[]) {
      const cpuAt = cpuMs();
      const wallAt = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const sql = this.source.replace(/\s+/g, ' ').trim().slice(0, 100);
        statementMs.set(sql, (statementMs.get(sql) ?? 0) + cpuMs() - cpuAt);
        statementRuns.set(sql, (statementRuns.get(sql) ?? 0) + 1);
        if (sql === 'COMMIT') commitWallMs.push(performance.now() - wallAt);
      }
    };
  }
}

async function replay(root: string, converted: Map<string, ConvertedPage>, pragmas: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'webdata-store-replay-'));
  const store = new SqliteStore(join(dir, 'store.db'));
  if (process.env.BENCH_REPLAY_STATEMENTS && statementMs.size === 0) timeStatements(store);
  for (const pragma of pragmas) {
    if (/^(insert|update|delete|select|drop|create)\b/i.test(pragma)) store.db.exec(pragma);
    else store.db.pragma(pragma);
  }
  const ms = { claims: 0, process: 0, writes: 0 };
  let pages = 0;
  try {
    const start = `${ORIGIN}/index.html`;
    const params = RUN_PARAMS['deep-crawl'].parse({
      url: start,
      max_depth: 100,
      limit: 100_000,
      formats: ['markdown'],
      collection: 'bench',
    });
    await store.createRun({
      owner: 'owner',
      type: 'deep-crawl',
      params,
      urls: [start],
      items: [{ url: start, key: normalizeUrl(start), depth: 0 }],
    } as never);
    const deps = {
      config: defaultConfig(),
      fetcher: {
        async fetchPage(url: string) {
          const path = decodeURIComponent(new URL(url).pathname);
          if (!converted.has(path)) throw Object.assign(new Error('not found'), { httpStatus: 404 });
          return { url, finalUrl: url, status: 200, contentType: 'text/html', kind: 'html', body: '' };
        },
        async fetchText() {
          return null;
        },
        async robotsFor() {
          return { sitemaps: [], crawlDelayMs: null, isAllowed: () => true };
        },
      },
      convert: async (page: { finalUrl: string }) =>
        converted.get(decodeURIComponent(new URL(page.finalUrl).pathname))!,
    } as unknown as PipelineDeps;
    const signal = new AbortController().signal;
    let waiting: CompletedItem[] = [];
    for (;;) {
      let at = cpuMs();
      const claimed: ClaimedItem[] = await store.claimItems('worker', CLAIM, 60_000);
      ms.claims += cpuMs() - at;
      if (claimed.length === 0 && waiting.length === 0) break;
      for (const item of claimed) {
        at = cpuMs();
        const outcome = await processItem(deps, item, signal);
        ms.process += cpuMs() - at;
        waiting.push({ item, outcome });
        pages += 1;
      }
      if (waiting.length >= BATCH || claimed.length === 0) {
        at = cpuMs();
        await store.completeItems(waiting);
        ms.writes += cpuMs() - at;
        waiting = [];
      }
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  void root;
  return { pages, ms };
}

async function main(): Promise<void> {
  const root = process.argv[2] ?? '/usr/share/doc/git-doc';
  const rounds = Number(process.argv[3] ?? 5);
  const { readdirSync } = await import('node:fs');
  const converted = new Map<string, ConvertedPage>();
  for (const file of readdirSync(root, { recursive: true }) as string[]) {
    if (!file.endsWith('.html')) continue;
    const html = readFileSync(join(root, file), 'utf8');
    converted.set(`/${file}`, convertPage(html, `${ORIGIN}/${file}`, { html: false }));
  }
  // BENCH_STORE_PRAGMAS ("a = 1; b = 2"): every other round runs with these pragmas set after the store
  // opens, so the store's settings are compared in one process, alternately.
  const variant = (process.env.BENCH_STORE_PRAGMAS ?? '')
    .split(';')
    .map((pragma) => pragma.trim())
    .filter(Boolean);
  let allPages = 0;
  for (let round = 0; round < rounds; round += 1) {
    const pragmas = variant.length > 0 && round % 2 === 1 ? variant : [];
    const { pages, ms } = await replay(root, converted, pragmas);
    allPages += pages;
    const per = (v: number) => (v / pages).toFixed(3);
    console.log(
      `round ${round + 1}${pragmas.length ? ' (pragmas)' : ''}: ${pages} items; CPU ms/page: claims ${per(ms.claims)}, processItem ${per(ms.process)}, ` +
        `writes ${per(ms.writes)}, all ${per(ms.claims + ms.process + ms.writes)}`,
    );
  }
  if (statementMs.size > 0) {
    console.log('CPU ms a page by statement (and runs a page), all rounds:');
    for (const [sql, spent] of [...statementMs].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
      const runs = (statementRuns.get(sql) ?? 0) / allPages;
      console.log(`  ${(spent / allPages).toFixed(3)} ×${runs.toFixed(1)}  ${sql}`);
    }
    const longest = [...commitWallMs].sort((a, b) => b - a).slice(0, 8);
    const wall = commitWallMs.reduce((sum, v) => sum + v, 0);
    console.log(
      `commits: ${commitWallMs.length}, wall ms a page ${(wall / allPages).toFixed(3)}, longest ${longest.map((v) => v.toFixed(1)).join(' ')}`,
    );
  }
}

await main();
