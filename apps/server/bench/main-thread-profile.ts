/**
 * Where the service's main thread spends a page's CPU during a deep crawl of
 * a real manual (`npx tsx bench/main-thread-profile.ts [manual root]`; the
 * Python 3.11 manual by default). Serves the manual from 127.0.0.1 as
 * `bench docs` does, runs our server from its sources under `--cpu-prof`
 * (so the profile names source files), deep-crawls the manual at
 * concurrency 8, and sums the main thread's samples by what they were doing.
 *
 * A sample goes to the innermost frame that names a known place (our
 * folders, undici, better-sqlite3, Fastify, Node's own streams and
 * sockets); native frames without a file (a SQLite statement's `run`,
 * `JSON.stringify`, `postMessage`) count for the frame that called them,
 * except for the few named below.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crawlWithServer } from './deep-crawl-bench.js';
import { DocsSite } from './docs-site.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Native functions worth their own line, by name (they have no file). */
const NATIVE: Record<string, string> = {
  stringify: 'JSON (stringify / parse)',
  parse: 'JSON (stringify / parse)',
  postMessage: 'transfer to/from the converter thread',
  '(garbage collector)': 'garbage collection',
  '(idle)': 'idle',
  '(program)': 'V8/Node outside JS (program)',
};

/** Places by a piece of their file's path: the first that matches names the sample. */
const PLACES: [string, string][] = [
  ['node:internal/modules', 'module loading (lazy imports)'],
  ['/tsx/', 'module loading (lazy imports)'],
  ['/src/search/', 'FTS insert (search index)'],
  ['/src/store/sqlite/search/', 'FTS insert (search index)'],
  ['/src/store/', 'store writes and reads (SQLite)'],
  ['better-sqlite3', 'store writes and reads (SQLite)'],
  ['/src/engine/', 'run machinery (leases, pool, events, run state)'],
  ['/src/crawl/', 'run machinery: links, frontier filters'],
  ['/src/fetch/', 'fetch (undici + SSRF guard, robots, decoding)'],
  ['/undici/', 'fetch (undici + SSRF guard, robots, decoding)'],
  ['/src/content/', 'transfer to/from the converter thread'],
  ['/src/worker-thread.ts', 'transfer to/from the converter thread'],
  ['node:internal/worker', 'transfer to/from the converter thread'],
  ['/src/http/', 'HTTP API (status polls)'],
  ['/fastify', 'HTTP API (status polls)'],
  ['/pino', 'HTTP API (status polls)'],
];

/** Frames that stand for their caller: helpers and Node's plumbing count for what called them. */
const WEAK: [string, string][] = [
  ['/src/', 'other of ours'],
  ['node:', 'Node internals (sockets, streams, timers)'],
];

function match(url: string, table: [string, string][]): string | undefined {
  for (const [piece, place] of table) if (url.includes(piece)) return place;
  return undefined;
}

/**
 * Self time per place (ms): each sample goes to its innermost frame with a
 * place of its own, else to its innermost weak frame, else to what the
 * native leaf is; only samples from the first to the last one inside
 * `processItem` (the crawl, not the start-up nor the shutdown).
 */
export function breakdown(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inItem = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (byId.get(at)!.callFrame.functionName === 'processItem') return true;
    }
    return false;
  };
  const first = profile.samples.findIndex(inItem);
  const last = profile.samples.findLastIndex(inItem);
  const placeCache = new Map<number, string>();
  const place = (id: number): string => {
    const cached = placeCache.get(id);
    if (cached) return cached;
    const leaf = byId.get(id)!.callFrame;
    let found = leaf.url ? undefined : NATIVE[leaf.functionName];
    let weak: string | undefined;
    for (let at: number | undefined = id; found === undefined && at !== undefined; at = parent.get(at)) {
      const { url } = byId.get(at)!.callFrame;
      if (!url) continue;
      found = match(url, PLACES);
      weak ??= match(url, WEAK) ?? `other: ${url.replace(/^.*node_modules\/(\.pnpm\/)?/, '').split('/')[0]}`;
    }
    found ??= weak ?? 'unattributed';
    placeCache.set(id, found);
    return found;
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    if (i < first || i > last) return;
    const where = place(id);
    totals.set(where, (totals.get(where) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return totals;
}

async function main(): Promise<void> {
  const root = process.argv[2] ?? '/usr/share/doc/python3.11/html';
  // BENCH_PROFILE_DIR keeps every thread's profile there (the converter thread's too) instead of a temp dir.
  const keep = process.env.BENCH_PROFILE_DIR;
  const profileDir = keep ?? mkdtempSync(join(tmpdir(), 'webdata-profile-'));
  const site = new DocsSite(root);
  await site.start();
  try {
    process.env.BENCH_CPU_PROF_DIR = profileDir;
    const figures = await crawlWithServer(`${site.url}/index.html`, 100_000, 8);
    const files = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread.
    const main = files.find((name) => name.split('.')[4] === '0');
    if (!main) throw new Error(`no main-thread profile among ${files.join(', ')}`);
    const text = readFileSync(join(profileDir, main), 'utf8');
    if (process.env.BENCH_PROFILE_OUT) writeFileSync(process.env.BENCH_PROFILE_OUT, text);
    const totals = breakdown(JSON.parse(text) as Profile);
    const pages = figures.pages;
    console.log(
      `${pages} pages in ${figures.seconds.toFixed(1)} s (${figures.pagesPerSecond.toFixed(1)} pages/s, ` +
        `run from sources under --cpu-prof), process CPU ${(figures.cpuMs / pages).toFixed(1)} ms/page (all threads)`,
    );
    console.log('main thread, ms per page:');
    const busy = [...totals].filter(([where]) => where !== 'idle').sort((a, b) => b[1] - a[1]);
    for (const [where, ms] of busy) {
      if (ms / pages >= 0.05) console.log(`  ${(ms / pages).toFixed(2).padStart(6)}  ${where}`);
    }
    const sum = busy.reduce((total, [, ms]) => total + ms, 0);
    console.log(`  ${(sum / pages).toFixed(2).padStart(6)}  main thread busy in all`);
  } finally {
    await site.stop();
    if (!keep) rmSync(profileDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) await main();
