/**
 * Latency probes: normal requests sent one after another while something
 * else runs, to see how long that something makes them wait. Shared by the
 * starvation test (server in the test's process) and the attack bench
 * (server in a child process).
 */
import type { ApiCall } from './api-client.js';

/** What a stretch of probing measured. */
export interface Probes {
  /** Each probe's latency, in ms, in the order sent. */
  latencies: number[];
  /** When each probe was sent (`performance.now()`), in the same order. */
  sentAt: number[];
  /** How long the probing lasted, in ms. */
  elapsed: number;
}

/**
 * GETs `paths` one after another, round after round, until `done` settles
 * (a round started before then is finished). A probe not answered 200 throws:
 * a probe that failed measured nothing.
 */
export async function probeUntil(call: ApiCall, paths: string[], done: Promise<unknown>): Promise<Probes> {
  let finished = false;
  const stop = () => {
    finished = true;
  };
  done.then(stop, stop);
  const started = performance.now();
  const latencies: number[] = [];
  const sentAt: number[] = [];
  while (!finished) {
    for (const path of paths) {
      const sent = performance.now();
      const { status } = await call('GET', path);
      latencies.push(performance.now() - sent);
      sentAt.push(sent);
      if (status !== 200) throw new Error(`probe ${path} answered ${status}`);
    }
  }
  return { latencies, sentAt, elapsed: performance.now() - started };
}

/** Probes `paths` for `ms` with nothing else running: the same run's baseline. */
export function probeFor(call: ApiCall, paths: string[], ms: number): Promise<Probes> {
  return probeUntil(call, paths, new Promise((resolve) => setTimeout(resolve, ms)));
}

/** The share of the probing time that probes spent waiting over `overMs` each. */
export function waitingShare({ latencies, elapsed }: Probes, overMs = 100): number {
  return latencies.filter((latency) => latency > overMs).reduce((sum, latency) => sum + latency, 0) / elapsed;
}
