/**
 * `pnpm bench`: N runs (default 1,000) watched at once against the real
 * server, once per watching strategy, and for each: HTTP requests per second
 * the client sent while watching, client CPU and peak heap, and the delay
 * between a run finishing on the server (`finished_at`) and the client
 * emitting its terminal snapshot (median and p95).
 *
 * The server (and the fixture site it crawls) runs in a child process, so the
 * CPU and heap figures are the client's alone. Each run crawls one page that
 * answers after a random 8–18 s, so runs finish spread over ten seconds, after
 * all of them were created. The modes run one after the other on one server,
 * after a warm-up; the machine is shared, so compare modes within one run.
 * Env: BENCH_RUNS, BENCH_MODES (comma-separated subset of the modes below).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { RunLenient } from '@webdata/contract';
import { isTerminalStatus } from '@webdata/contract';
import { filter, from, lastValueFrom, merge, mergeMap, tap, toArray } from 'rxjs';
import { createClient, type WebDataClient } from '../src/index.js';

const RUNS = Number(process.env.BENCH_RUNS ?? '1000');
const MODES = (process.env.BENCH_MODES ?? 'naive-1s,adaptive,adaptive-batched,long-poll').split(',');
const here = dirname(fileURLToPath(import.meta.url));

interface Figures {
  mode: string;
  requests: number;
  seconds: number;
  cpuMs: number;
  heapPeakMb: number;
  delays: number[];
  late: number;
}

async function startServerProcess(): Promise<{
  child: ChildProcess;
  url: string;
  apiKey: string;
  siteUrl: string;
}> {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', join(here, 'server-process.ts')],
    {
      cwd: join(here, '..'),
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { child, ...(JSON.parse(line) as { url: string; apiKey: string; siteUrl: string }) };
}

/** Creates the runs, 50 at a time; each crawls one page answering after `minDelayMs` + 0–10 s. */
async function createRuns(
  client: WebDataClient,
  siteUrl: string,
  tag: string,
  count = RUNS,
  minDelayMs = 8_000,
): Promise<string[]> {
  const runs = await lastValueFrom(
    from(Array.from({ length: count }, (_, i) => i)).pipe(
      mergeMap((i) => {
        const delay = minDelayMs + Math.round(Math.random() * (count > 100 ? 10_000 : 0));
        return client.runs.start({ type: 'crawl', urls: [`${siteUrl}/${tag}/${i}?delay=${delay}`] });
      }, 50),
      toArray(),
    ),
  );
  return runs.map((run) => run.id);
}

async function measure(
  mode: string,
  ids: string[],
  client: WebDataClient,
  watch: () => Promise<void>,
  onTerminal: Map<string, number>,
  finishedAt: Map<string, number>,
): Promise<Figures> {
  const startedAt = Date.now();
  const requestsBefore = client.requestCount;
  const cpuBefore = process.cpuUsage();
  let heapPeak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 100);
  await watch();
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpuBefore);
  const seconds = (Date.now() - startedAt) / 1000;
  const delays: number[] = [];
  let late = 0;
  for (const id of ids) {
    const finished = finishedAt.get(id);
    const seen = onTerminal.get(id);
    if (finished === undefined || seen === undefined) continue;
    // A run that finished before watching began says nothing about the watcher.
    if (finished < startedAt) late++;
    else delays.push(seen - finished);
  }
  return {
    mode,
    requests: client.requestCount - requestsBefore,
    seconds,
    cpuMs: (cpu.user + cpu.system) / 1000,
    heapPeakMb: heapPeak / 1024 / 1024,
    delays,
    late,
  };
}

function record(run: RunLenient, onTerminal: Map<string, number>, finishedAt: Map<string, number>) {
  if (!isTerminalStatus(run.status) || onTerminal.has(run.id)) return;
  onTerminal.set(run.id, Date.now());
  finishedAt.set(run.id, Date.parse(run.finished_at ?? run.updated_at ?? ''));
}

async function runMode(
  mode: string,
  server: { url: string; apiKey: string; siteUrl: string },
): Promise<Figures> {
  const client = createClient({
    baseUrl: server.url,
    apiKey: server.apiKey,
    // Long polls hold one connection each: the pool must be able to hold them all.
    connections: mode === 'long-poll' ? RUNS + 100 : 128,
    poll: { longPollSeconds: mode === 'long-poll' ? 20 : 0 },
    timeoutMs: 120_000,
  });
  const ids = await createRuns(client, server.siteUrl, mode);
  const onTerminal = new Map<string, number>();
  const finishedAt = new Map<string, number>();
  const watch = async () => {
    if (mode === 'naive-1s') {
      // The baseline: every run polled on its own, once a second, until terminal.
      await Promise.all(
        ids.map(async (id) => {
          for (;;) {
            const run = await client.runs.get(id);
            if (isTerminalStatus(run.status)) return record(run, onTerminal, finishedAt);
            await new Promise((r) => setTimeout(r, 1000));
          }
        }),
      );
    } else if (mode === 'adaptive-batched') {
      await lastValueFrom(
        client.runs.watchMany(ids).pipe(tap((run) => record(run, onTerminal, finishedAt))),
        { defaultValue: undefined },
      );
    } else {
      await lastValueFrom(
        merge(...ids.map((id) => client.runs.watch(id))).pipe(
          tap((run) => record(run, onTerminal, finishedAt)),
          filter(() => false),
        ),
        { defaultValue: undefined },
      );
    }
  };
  const figures = await measure(mode, ids, client, watch, onTerminal, finishedAt);
  await client.close();
  return figures;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const server = await startServerProcess();
const results: Figures[] = [];
try {
  console.log(
    `webdata core bench: ${RUNS} runs watched at once per mode; server ${server.url} (child process)`,
  );
  for (const mode of MODES) {
    const figures = await runMode(mode, server);
    results.push(figures);
    console.log(`  ${mode}: done in ${figures.seconds.toFixed(1)} s`);
  }
} finally {
  server.child.stdin?.end();
  await new Promise((resolve) => server.child.once('exit', resolve));
}

console.log('');
console.log(
  '| mode | requests/s | requests | client CPU (ms, % of a core) | heap peak (MB) | delay median (ms) | delay p95 (ms) | runs measured |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const f of results) {
  const sorted = [...f.delays].sort((a, b) => a - b);
  console.log(
    `| ${f.mode} | ${(f.requests / f.seconds).toFixed(1)} | ${f.requests} | ${f.cpuMs.toFixed(0)} (${((f.cpuMs / 1000 / f.seconds) * 100).toFixed(1)} %) | ${f.heapPeakMb.toFixed(1)} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 95).toFixed(0)} | ${f.delays.length}${f.late ? ` (+${f.late} finished before watching)` : ''} |`,
  );
}
