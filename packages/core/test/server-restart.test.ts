import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, createClient, type WebDataClient } from '../src/index.js';
import { type FixtureSite, startFixtureSite } from './fixture-site.js';
import { type RealServer, startRealServer } from './real-server.js';

/**
 * A watch meets a server restart (what a deploy does): the server drains
 * (answering 503 with Retry-After for up to 10 s while a page is held), stops
 * (connections refused), and a new one starts on the same port and data dir,
 * where the run goes on. The watch must end with the run, not with an error.
 */
let dataDir: string;
let port: number;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const start = () =>
  startRealServer({
    dataDir,
    port,
    allowPrivateNetworks: true,
    logLevel: 'silent',
    rateLimitPerSecond: 10_000,
    rateLimitBurst: 10_000,
  });

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'webdata-core-restart-'));
  port = await freePort();
});

afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.each([
  ['batched run feed', true],
  ['per-run poll', false],
])('a run watch through a server restart (%s)', (_name, batch) => {
  let server: RealServer | undefined;
  let site: FixtureSite;
  let client: WebDataClient;

  beforeAll(async () => {
    site = await startFixtureSite();
    server = await start();
    client = createClient({ baseUrl: server.url, apiKey: server.apiKey, poll: { batch, initialMs: 50 } });
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await site?.close();
  });

  it('ends completed with the result', { timeout: 60_000 }, async () => {
    const path = `/hold/restart-${batch ? 'batch' : 'poll'}`;
    const run = await client.runs.start({ type: 'crawl', urls: [`${site.url}${path}`] });
    await until(() => site.requests.includes(path));
    const last = lastValueFrom(client.runs.watch(run.id));
    // Let the watch get going (a long poll in flight), then restart the server under it.
    await new Promise((r) => setTimeout(r, 500));
    await server?.close(); // what SIGTERM does: drain (10 s, the page is held), then stop
    server = undefined;
    // A new process listens ~0.5 s after the old one exits on a quiet machine; a deploy
    // (pulling, migrating, a busy host) takes longer. 3 s is past the request's own
    // retries (two, 5 s apart after the drain's Retry-After), so only the watch's own
    // outage budget carries it through.
    await new Promise((r) => setTimeout(r, 3_000));
    server = await start();
    // The new server takes the run up again and asks for the page once more.
    await until(() => site.requests.filter((p) => p === path).length >= 2, 30_000);
    site.release();
    const final = await last;
    expect(final.id).toBe(run.id);
    expect(final.status).toBe('completed');
    const results = await client.runs.results(run.id).toArray();
    expect(results.map((r) => r.url)).toEqual([`${site.url}${path}`]);
  });
});

/**
 * Both ways of watching count one outage budget the same way: from the first
 * failed request to the next answer. Runs watched meanwhile are no answer:
 * the batched feed used to start its budget over on a turn of its loop that
 * only gathered newly watched runs, so a view watching runs as they came
 * never gave up on a server that was gone.
 */
describe.each([
  ['batched run feed', true],
  ['per-run poll', false],
])('a run watch when the server stays down past poll.outageMs (%s)', (_name, batch) => {
  it('errors with the connection error while other runs are watched meanwhile; after a restart a new watch ends completed', {
    timeout: 60_000,
  }, async () => {
    const site = await startFixtureSite();
    let server: RealServer | undefined = await start();
    const client = createClient({
      baseUrl: server.url,
      apiKey: server.apiKey,
      // No retries of the request itself: the watch's outage budget is all that rides the outage out.
      retry: { maxRetries: 0 },
      poll: { batch, initialMs: 50, gatherMs: 1_000, outageMs: 3_000 },
    });
    const others: Subscription[] = [];
    try {
      const path = `/hold/outage-${batch ? 'batch' : 'poll'}`;
      const run = await client.runs.start({ type: 'crawl', urls: [`${site.url}${path}`] });
      await until(() => site.requests.includes(path));
      // Stopped without draining: the held page goes back to the queue, the port refuses connections.
      await server.server.close(0);
      server = undefined;
      const outcome: { error?: unknown } = {};
      const watch = client.runs.watch(run.id).subscribe({
        error: (error: unknown) => {
          outcome.error = error;
        },
      });
      others.push(watch);
      // A view that watches runs as they come: another one every 400 ms, until the watch gives up.
      const started = Date.now();
      while (outcome.error === undefined && Date.now() - started < 20_000) {
        others.push(client.runs.watch(`run_meanwhile${others.length}`).subscribe({ error: () => {} }));
        await new Promise((r) => setTimeout(r, 400));
      }
      expect(outcome.error).toBeInstanceOf(ConnectionError);
      for (const subscription of others) subscription.unsubscribe();

      server = await start();
      site.release();
      const final = await lastValueFrom(client.runs.watch(run.id));
      expect(final.status).toBe('completed');
    } finally {
      for (const subscription of others) subscription.unsubscribe();
      await client.close();
      await server?.close();
      await site.close();
    }
  });
});
