import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../src/checks.js';
import { type ApiCall, apiClient } from '../src/http-client.js';
import { conformanceTarget } from '../src/target.js';

const target = conformanceTarget();

/**
 * The main server of an own run lets private addresses through (it has to
 * fetch the fixture on 127.0.0.1), so these rules are checked on a second
 * server with the default guard on, no workers (nothing is ever fetched) and
 * a small rate. Against a foreign server they run only when it promises a
 * guard (`WEBDATA_EXPECT_URL_GUARD=1`). Only loopback URLs are ever sent.
 */
let guarded: {
  baseUrl: string;
  call: ApiCall;
  createKey: () => Promise<string>;
  close: () => Promise<void>;
} | null = null;
const GUARD_SKIP =
  'the server under test lets private addresses through; set WEBDATA_EXPECT_URL_GUARD=1 for a foreign server that refuses them';

beforeAll(async () => {
  if (target.ownServer) {
    const { startServer } = await import('@webdata/server');
    const dataDir = mkdtempSync(join(tmpdir(), 'webdata-conformance-guard-'));
    const server = await startServer({
      dataDir,
      logLevel: 'silent',
      validateResponses: true,
      runWorkers: false,
      rateLimitPerSecond: 1,
      rateLimitBurst: 5,
    });
    guarded = {
      baseUrl: server.url,
      call: apiClient(server.url, server.apiKey),
      createKey: () => server.createKey(),
      close: async () => {
        await server.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } else if (target.expectUrlGuard) {
    guarded = {
      baseUrl: target.baseUrl,
      call: apiClient(target.baseUrl, target.apiKey),
      createKey: async () => target.apiKey,
      close: async () => {},
    };
  }
});

afterAll(async () => {
  await guarded?.close();
});

describe('URLs that may not be fetched', () => {
  it('[api-v1 Errors] 422 unprocessable_url for loopback targets while the guard is on', async (context) => {
    if (!guarded) return context.skip(GUARD_SKIP);
    const { call } = guarded;
    expectError(
      target,
      await call('POST', '/api/v1/crawl', { body: { urls: ['http://127.0.0.1:9/'] } }),
      422,
      'unprocessable_url',
    );
    expectError(
      target,
      await call('POST', '/api/v1/deep-crawl', { body: { url: 'http://[::1]:9/' } }),
      422,
      'unprocessable_url',
    );
    expectError(
      target,
      await call('POST', '/api/v1/extract', { body: { urls: ['http://127.0.0.2:9/x'], query: 'the title' } }),
      422,
      'unprocessable_url',
    );
  });
});

describe('rate limits', () => {
  it('[api-v1 Errors] 429 rate_limited with Retry-After past the key rate', async (context) => {
    if (!guarded || !target.ownServer)
      return context.skip('needs a server started with a small rate limit (own server only)');
    // A key of its own: the rate is per key, so the 422 test above does not count against it.
    const call = apiClient(guarded.baseUrl, await guarded.createKey(), { retryRateLimited: false });
    let limited = null;
    for (let i = 0; i < 20 && !limited; i++) {
      const response = await call('GET', '/api/v1/runs?limit=1');
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(200);
    }
    expect(limited, 'a 429 within 20 requests at a burst of 5').not.toBeNull();
    expectError(target, limited!, 429, 'rate_limited');
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
