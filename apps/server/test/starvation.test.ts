/**
 * One request cannot starve the others. While hostile requests run — a
 * catastrophic `pattern` against a page made for it, a burst of large
 * distinct schemas from one key, bodies nested 64 levels — `/healthz` and a
 * normal `GET /runs/{id}` keep answering.
 *
 * Measured on the event loop (perf_hooks' monitorEventLoopDelay: the server
 * runs in this process) and by sequential probes, each beside the same run's
 * baseline: the same probing for a few seconds with nothing else running, so
 * a machine that is loaded right now loosens the bounds with it. The bounds
 * are generous on purpose (the 100 ms promise is measured from outside the
 * server by `bench attack`, not asserted here): what they catch is the loop
 * held for the hostile requests' work, as before the schema thread — for the
 * whole minute they took (2^28 backtracking steps for the pattern, hundreds
 * of milliseconds per schema compile), every probe waiting. What remains is
 * the machine's pauses and the burst's own body validation (zod, a few
 * milliseconds per large schema, 40 arriving at once, one per loop turn).
 * That a new connection is not kept waiting behind the burst's turns is
 * shown structurally in `src/loop-turns.test.ts`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, waitForRun } from './api-client.js';
import { FixtureSite } from './fixture-site.js';
import { deepBody, HOSTILE_PAGES, largeSchema, REDOS_SCHEMA } from './hostile-requests.js';
import { probeFor, probeUntil, waitingShare } from './probes.js';
import { startTestServer, type TestServer } from './test-server.js';

let site: FixtureSite;
let server: TestServer;

beforeAll(async () => {
  site = new FixtureSite(HOSTILE_PAGES);
  await site.start();
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
  await site?.stop();
});

describe('one request cannot starve the others', () => {
  it('keeps /healthz and GET /runs/{id} answering while hostile requests run', {
    timeout: 180_000,
  }, async () => {
    const normal = await server.call('POST', '/api/v1/crawl', { urls: [`${site.url}/plain`] });
    expect(normal.status).toBe(202);
    await waitForRun(server.call, normal.body.id);
    const paths = ['/healthz', `/api/v1/runs/${normal.body.id}`];
    const ms = (ns: number) => ns / 1e6;

    // The baseline: the same probing with nothing else running, on this machine as loaded as it is now.
    const quietLoop = monitorEventLoopDelay({ resolution: 10 });
    quietLoop.enable();
    const quiet = await probeFor(server.call, paths, 3_000);
    quietLoop.disable();

    const redos = async () => {
      const created = await server.call('POST', '/api/v1/extract', {
        urls: [`${site.url}/redos`],
        schema: REDOS_SCHEMA,
      });
      expect(created.status).toBe(202);
      const run = await waitForRun(server.call, created.body.id, 120_000);
      const results = await server.call('GET', `/api/v1/runs/${run.id}/results`);
      return results.body.data[0];
    };
    const burst = () =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          server.call('POST', '/api/v1/extract', { urls: [`${site.url}/plain`], schema: largeSchema(i) }),
        ),
      );
    // From another key: its requests take turns with the burst's on the schema thread.
    const other = apiClient(server.url, await server.createKey());
    const deep = () =>
      Promise.all(
        Array.from({ length: 10 }, () => other('POST', '/api/v1/extract', deepBody(`${site.url}/plain`))),
      );
    // The server runs in this process: its event loop is this loop.
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const hostile = Promise.all([redos(), burst(), deep()]);

    const attack = await probeUntil(server.call, paths, hostile);
    const [redosResult, burstAnswers, deepAnswers] = await hostile;
    loop.disable();

    // The hostile requests got their answers too.
    expect(redosResult.status).toBe('failed');
    expect(redosResult.error.message).toMatch(/must match pattern/);
    for (const answer of burstAnswers) expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    for (const answer of deepAnswers) expect(answer.status, JSON.stringify(answer.body)).toBe(202);

    const summary = (phase: string, probes: typeof quiet, histogram: typeof loop) =>
      `${phase}: ${probes.latencies.length} probes in ${(probes.elapsed / 1000).toFixed(1)} s, longest ${Math.max(...probes.latencies).toFixed(0)} ms, ${(waitingShare(probes) * 100).toFixed(1)} % of the time in probes over 100 ms; loop delay p99 ${ms(histogram.percentile(99)).toFixed(1)} ms, max ${ms(histogram.max).toFixed(0)} ms`;
    console.log(summary('baseline', quiet, quietLoop));
    console.log(summary('under attack', attack, loop));
    expect(attack.latencies.length).toBeGreaterThan(20);
    // Beside the baseline, with room for a loaded machine (a quarter of the time was once exceeded under
    // heavy load): a loop held by one compile after another keeps nearly every probe waiting, all along.
    expect(waitingShare(attack)).toBeLessThan(Math.max(0.5, 2 * waitingShare(quiet)));
    expect(ms(loop.percentile(99))).toBeLessThan(Math.max(250, 4 * ms(quietLoop.percentile(99))));
    expect(ms(loop.max)).toBeLessThan(Math.max(1_500, 4 * ms(quietLoop.max)));
    expect(Math.max(...attack.latencies)).toBeLessThan(Math.max(2_500, 4 * Math.max(...quiet.latencies)));
  });
});
