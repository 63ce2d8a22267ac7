import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { FixtureSite } from './fixture-site.js';
import type { ConformanceTarget } from './target.js';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * Decides what the suite runs against. With `WEBDATA_BASE_URL` and
 * `WEBDATA_API_KEY`, a foreign server (and `WEBDATA_FIXTURE_URL`, when given,
 * as the site it fetches). Without them, our own server with a temporary data
 * folder and a fixture site, both on 127.0.0.1 and both stopped afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = process.env;
  if (env.WEBDATA_BASE_URL) {
    if (!env.WEBDATA_API_KEY) throw new Error('WEBDATA_BASE_URL is set but WEBDATA_API_KEY is not');
    const target: ConformanceTarget = {
      baseUrl: trimSlash(env.WEBDATA_BASE_URL),
      apiKey: env.WEBDATA_API_KEY,
      secondApiKey: env.WEBDATA_SECOND_API_KEY || null,
      fixtureUrl: env.WEBDATA_FIXTURE_URL ? trimSlash(env.WEBDATA_FIXTURE_URL) : null,
      ownServer: false,
      expectUrlGuard: env.WEBDATA_EXPECT_URL_GUARD === '1',
    };
    project.provide('conformanceTarget', target);
    return async () => {};
  }

  // Imported here only: a run against a foreign server needs none of our server's code.
  const { startServer } = await import('@webdata/server');
  const site = new FixtureSite();
  const fixtureUrl = await site.start();
  const dataDir = mkdtempSync(join(tmpdir(), 'webdata-conformance-'));
  const server = await startServer({
    dataDir,
    allowPrivateNetworks: true,
    logLevel: 'silent',
    validateResponses: true,
    rateLimitPerSecond: 10_000,
    rateLimitBurst: 10_000,
    // All test files share one key; the cap of runs queued or running is not what they check.
    maxActiveRunsPerOwner: 10_000,
    // Every test file fetches the same 127.0.0.1 fixture host; some hold a slow page open.
    perHostConcurrency: 16,
    workerConcurrency: 8,
  });
  project.provide('conformanceTarget', {
    baseUrl: server.url,
    apiKey: server.apiKey,
    secondApiKey: await server.createKey(),
    fixtureUrl,
    ownServer: true,
    expectUrlGuard: false,
  });
  return async () => {
    // The site first: held slow fetches fail at once, so the server drains quickly.
    await site.stop();
    await server.server.close(2_000);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
