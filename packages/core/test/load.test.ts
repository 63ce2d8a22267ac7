/**
 * The first load, as the issue that asked for pacing met it: 200 creations at
 * once and 200 watches, against the real server at its DEFAULT rate limit
 * (20 requests a second per key, bursts of 40). Every call must succeed: the
 * client paces itself instead of losing runs to 429s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, merge, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectRun, createClient, type WebDataClient } from '../src/index.js';
import { type FixtureSite, startFixtureSite } from './fixture-site.js';
import { type RealServer, startRealServer } from './real-server.js';

let site: FixtureSite;
let server: RealServer;
let dataDir: string;
const clients: WebDataClient[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
  dataDir = mkdtempSync(join(tmpdir(), 'webdata-core-load-'));
  // No rate-limit settings: the server's defaults.
  server = await startRealServer({ dataDir, allowPrivateNetworks: true, logLevel: 'silent' });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server?.close();
  await site?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const newClient = () => {
  const client = createClient({ baseUrl: server.url, apiKey: server.apiKey });
  clients.push(client);
  return client;
};

describe('under the server default rate limit', () => {
  it('creates 200 runs at once and watches all 200 to the end without an error', async () => {
    const client = newClient();
    const runs = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        client.runs.start({ type: 'crawl', urls: [`${site.url}/n/start-${i}`] }),
      ),
    );
    expect(new Set(runs.map((run) => run.id)).size).toBe(200);
    const watchedFrom = client.requestCount;
    const snapshots = await lastValueFrom(
      merge(...runs.map((run) => client.runs.watch(run.id))).pipe(toArray()),
    );
    const finished = new Set(snapshots.filter((run) => run.status === 'completed').map((run) => run.id));
    expect(finished.size).toBe(200);
    // 200 watches are one stream: two batched reads of 100, then a few batched long polls.
    console.log(
      `load: 200 creations at once: ${watchedFrom} requests; then 200 watches: ${client.requestCount - watchedFrom} requests; ${client.rateLimitedCount} answered 429 in all`,
    );
    expect(client.requestCount - watchedFrom).toBeLessThan(40);
    expect(client.activeWatches).toBe(0);
  }, 120_000);

  it('runs 200 crawls end to end at once (create, watch, read results) without an error', async () => {
    const client = newClient();
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        collectRun(client.crawl({ urls: [`${site.url}/n/life-${i}`] }), {}),
      ),
    );
    expect(outcomes.every((outcome) => outcome.run.status === 'completed')).toBe(true);
    expect(outcomes.every((outcome) => outcome.results.length === 1)).toBe(true);
    console.log(
      `load: 200 crawls end to end at once: ${client.requestCount} requests, ${client.rateLimitedCount} answered 429`,
    );
    // Pacing kept the client within the server's budget: the few 429s there were got retried.
    expect(client.rateLimitedCount).toBeLessThan(20);
  }, 180_000);
});
