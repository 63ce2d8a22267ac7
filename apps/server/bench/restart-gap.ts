/**
 * `tsx bench/restart-gap.ts [ROUNDS] [MAIN_JS…]`: how long a restarted server
 * leaves its port without an answer. Each round starts a built server
 * (`dist/main.js`, or each MAIN_JS given, in turn: A/B rounds alternate),
 * sends it SIGTERM, and starts a new one on the same port and data directory
 * the moment the old one exits (what a supervisor does), while a client asks
 * `GET /api/v1/runs` with the key every 5 ms. Prints, per server, the median
 * and range of: old exit → first answer (connections refused until then),
 * old exit → first 200, and what the first answer was.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exited } from '../test/server-process.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const MAINS =
  process.argv.slice(3).length > 0
    ? process.argv.slice(3)
    : [fileURLToPath(new URL('../dist/main.js', import.meta.url))];
const PROBE_EVERY_MS = 5;

function startServer(
  main: string,
  dataDir: string,
  port: number,
): { child: ChildProcess; banner: Promise<string> } {
  const child = spawn(process.execPath, [main, 'start', '--port', String(port), '--data-dir', dataDir], {
    env: { ...process.env, WEBDATA_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const banner = new Promise<string>((resolve) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (/^(API key: .*|API keys: .*)$/m.test(out)) resolve(out);
    });
  });
  return { child, banner };
}

/** One GET: its status, or 0 when the connection was refused or reset. */
function probe(port: number, apiKey: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/v1/runs?limit=1',
        headers: { 'x-api-key': apiKey },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end();
  });
}

interface Round {
  firstAnswerMs: number;
  firstOkMs: number;
  firstStatus: number;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'webdata-restart-gap-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const first = startServer(MAINS[0]!, dataDir, port);
  const banner = await first.banner;
  const apiKey = /^API key: (\S+)$/m.exec(banner)?.[1];
  if (!apiKey) throw new Error(`no key in the banner:\n${banner}`);
  let running = first.child;
  const results = new Map<string, Round[]>(MAINS.map((main) => [main, []]));
  try {
    for (let i = 0; i < ROUNDS * MAINS.length; i++) {
      const main = MAINS[i % MAINS.length]!;
      // Settle: the old server answers, then it is told to stop.
      while ((await probe(port, apiKey)) !== 200) await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
      const old = running;
      old.kill('SIGTERM');
      await exited(old);
      const exitAt = performance.now();
      const next = startServer(main, dataDir, port);
      running = next.child;
      let firstAnswerMs = -1;
      let firstStatus = 0;
      for (;;) {
        const status = await probe(port, apiKey);
        if (status !== 0 && firstAnswerMs < 0) {
          firstAnswerMs = performance.now() - exitAt;
          firstStatus = status;
        }
        if (status === 200) break;
        await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
      }
      const firstOkMs = performance.now() - exitAt;
      await next.banner;
      results.get(main)!.push({ firstAnswerMs, firstOkMs, firstStatus });
    }
  } finally {
    running.kill('SIGTERM');
    await exited(running);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `median ${Math.round(sorted[Math.floor(sorted.length / 2)]!)} ms (${Math.round(sorted[0]!)}–${Math.round(sorted.at(-1)!)})`;
  };
  for (const [main, rounds] of results) {
    console.log(`${main} (${rounds.length} restarts)`);
    console.log(
      `  old exit → first answer: ${summary(rounds.map((r) => r.firstAnswerMs))}; first answers: ${[...new Set(rounds.map((r) => r.firstStatus))].join(', ')}`,
    );
    console.log(`  old exit → first 200:    ${summary(rounds.map((r) => r.firstOkMs))}`);
  }
}

await main();
