/**
 * `pnpm --filter @webdata/server bench attack`: issue 16's reproductions
 * measured from outside the server, which runs as users run it (the built
 * server in a child process), so the figures hold the server's stalls and
 * not those of a test runner sharing its event loop.
 *
 * 1. Stalls: `/healthz` and `GET /runs/{id}` probed one after another for
 *    5 s with nothing else running (the baseline: what this machine gives
 *    right now), then again while the hostile requests run (the `(a+)+$`
 *    pattern against a page made for it, 40 distinct ~40 KB schemas at once,
 *    10 bodies nested 64 levels). Printed: probes, p50, p99, longest, and how
 *    many waited over 100 ms; then the same less the time this (the probing)
 *    process's own event loop was held during each probe, which is not the
 *    server's.
 * 2. Memory: 3,000 distinct schemas from one key, 20 at a time, to a server
 *    of its own that runs no workers (what grew was the request path: nothing
 *    is fetched); its resident set before, after 1,000 and after 3,000, and
 *    its peak.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { percentile } from '../quality/search/metrics.js';
import { apiClient, waitForRun } from '../test/api-client.js';
import { FixtureSite } from '../test/fixture-site.js';
import {
  deepBody,
  distinctSchema,
  HOSTILE_PAGES,
  largeSchema,
  REDOS_SCHEMA,
} from '../test/hostile-requests.js';
import { type Probes, probeFor, probeUntil } from '../test/probes.js';
import { exited, type ServerProcess, spawnServer } from '../test/server-process.js';
import { rssMb } from './child-process.js';

const QUIET_MS = 5_000;

function describeProbes(phase: string, latencies: number[]): string {
  const over = latencies.filter((latency) => latency > 100).length;
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return `${phase.padEnd(34)} ${String(latencies.length).padStart(6)} probes  p50 ${ms(percentile(latencies, 0.5))}  p99 ${ms(percentile(latencies, 0.99))}  longest ${ms(Math.max(...latencies))}  over 100 ms: ${over}`;
}

/** When this process's event loop was held, as {@link watchLoopHolds} saw it. */
interface LoopHolds {
  stop: () => void;
  /** How long, in ms, the loop was held between `from` and `to` (`performance.now()` times). */
  heldWithin: (from: number, to: number) => number;
}

/**
 * Records when this process's event loop was held (a 2 ms timer that came
 * late by over 5 ms), to take those holds out of the probes' latencies.
 */
function watchLoopHolds(): LoopHolds {
  const holds: [number, number][] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 7) holds.push([last + 2, now]);
    last = now;
  }, 2);
  return {
    stop: () => clearInterval(timer),
    heldWithin: (from: number, to: number) =>
      holds.reduce((sum, [start, end]) => sum + Math.max(0, Math.min(end, to) - Math.max(start, from)), 0),
  };
}

/** Runs the attack bench and prints its figures. */
export async function benchAttack(): Promise<void> {
  const site = new FixtureSite(HOSTILE_PAGES);
  await site.start();
  const dataDir = mkdtempSync(join(tmpdir(), 'webdata-attack-bench-'));
  const start = (name: string, env: NodeJS.ProcessEnv = {}) =>
    spawnServer(join(dataDir, name), ['--allow-private-networks'], {
      built: true,
      // The probes and the bursts must not meet the rate limit: it is not what is measured.
      env: {
        WEBDATA_RATE_LIMIT: '1000000',
        WEBDATA_RATE_BURST: '1000000',
        WEBDATA_MAX_ACTIVE_RUNS: '1000000',
        ...env,
      },
    });
  const servers: ServerProcess[] = [];
  try {
    const server = await start('stalls');
    servers.push(server);
    const call = apiClient(server.url, server.apiKey!);
    const normal = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/plain`] });
    await waitForRun(call, normal.body.id);
    const paths = ['/healthz', `/api/v1/runs/${normal.body.id}`];

    console.log('\nattack bench: one request cannot stall the others (server in its own process)');
    const quietHolds = watchLoopHolds();
    const quietProbes = await probeFor(call, paths, QUIET_MS);
    quietHolds.stop();
    const quiet = quietProbes.latencies;

    const hostile = Promise.all([
      call('POST', '/api/v1/extract', { urls: [`${site.url}/redos`], schema: REDOS_SCHEMA }).then((created) =>
        waitForRun(call, created.body.id, 120_000),
      ),
      ...Array.from({ length: 40 }, (_, i) =>
        call('POST', '/api/v1/extract', { urls: [`${site.url}/plain`], schema: largeSchema(i) }),
      ),
      ...Array.from({ length: 10 }, () => call('POST', '/api/v1/extract', deepBody(`${site.url}/plain`))),
    ]);
    const started = performance.now();
    // The probes are timed by this process, which also builds and sends the hostile requests (and shares
    // the machine): its own event loop's delays are printed beside them, and taken out of each probe, to
    // tell the client's waits from the server's.
    const clientLoop = monitorEventLoopDelay({ resolution: 10 });
    clientLoop.enable();
    const ownHolds = watchLoopHolds();
    const attack = await probeUntil(call, paths, hostile);
    ownHolds.stop();
    clientLoop.disable();
    const underAttack = attack.latencies;
    const [redos] = await hostile;
    console.log(describeProbes('baseline: nothing else running', quiet));
    console.log(describeProbes('while the hostile requests run', underAttack));
    console.log(
      `  this (the probing) process's own event loop meanwhile: p99 ${(clientLoop.percentile(99) / 1e6).toFixed(1)} ms, longest ${(clientLoop.max / 1e6).toFixed(1)} ms`,
    );
    const waitsLessOwnHolds = (probes: Probes, holds: LoopHolds) =>
      probes.latencies.map(
        (latency, i) => latency - holds.heldWithin(probes.sentAt[i]!, probes.sentAt[i]! + latency),
      );
    const quietWaits = waitsLessOwnHolds(quietProbes, quietHolds);
    const attackWaits = waitsLessOwnHolds(attack, ownHolds);
    console.log(
      `  each probe less the time this process's own loop was held during it: longest ${Math.max(...attackWaits).toFixed(1)} ms, over 100 ms: ${attackWaits.filter((wait) => wait > 100).length} (baseline: longest ${Math.max(...quietWaits).toFixed(1)} ms)`,
    );
    console.log(
      `  hostile requests answered in ${((performance.now() - started) / 1000).toFixed(1)} s; the (a+)+$ run ended ${redos.status}`,
    );

    const memory = await start('memory', { WEBDATA_RUN_WORKERS: 'false' });
    servers.push(memory);
    const pid = memory.child.pid!;
    const callMemory = apiClient(memory.url, memory.apiKey!);
    const rss: string[] = [`before: ${rssMb(pid, 'VmRSS')} MB`];
    for (let sent = 0; sent < 3_000; sent += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          callMemory('POST', '/api/v1/extract', {
            urls: [`${site.url}/plain`],
            schema: distinctSchema(sent + i),
          }),
        ),
      );
      for (const answer of answers) {
        if (answer.status !== 202) throw new Error(`schema ${sent} answered ${answer.status}`);
      }
      if ((sent + 20) % 1_000 === 0) rss.push(`after ${sent + 20}: ${rssMb(pid, 'VmRSS')} MB`);
    }
    console.log(
      `3,000 distinct schemas from one key, server RSS ${rss.join(', ')}; peak ${rssMb(pid, 'VmHWM')} MB (floor: under 300 MB)`,
    );
  } finally {
    for (const { child } of servers) {
      child.kill('SIGTERM');
      await exited(child);
    }
    await site.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
