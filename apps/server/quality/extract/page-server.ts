/**
 * The setting both API measurements share: saved pages served from 127.0.0.1
 * and the built server (as users run it) started beside them, so the numbers
 * are the API's and not an in-process shortcut's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiCall, apiClient } from '../../test/api-client.js';
import { type FixtureRoute, FixtureSite } from '../../test/fixture-site.js';
import { exited, spawnServer } from '../../test/server-process.js';

/** Workers of the server under test, and as many per host: a batch's pages stand for many different sites. */
export const WORKERS = 8;

/** The pages' site and the server under test, running. */
export interface PageServer {
  /** Base URL of the site serving the pages. */
  siteUrl: string;
  /** The API of the server under test, with its first key. */
  call: ApiCall;
  /** Stops the server (once); the site keeps serving. */
  stopServer(): Promise<void>;
  /** Stops both and removes the server's data. */
  close(): Promise<void>;
}

/** Serves `routes` and starts the server with private networks allowed (the site is on loopback) and no rate limit. */
export async function startPageServer(
  routes: Record<string, FixtureRoute>,
  label: string,
): Promise<PageServer> {
  const site = new FixtureSite(routes);
  await site.start();
  const dataDir = mkdtempSync(join(tmpdir(), `webdata-${label}-`));
  const server = await spawnServer(dataDir, ['--allow-private-networks'], {
    built: true,
    env: {
      WEBDATA_WORKERS: String(WORKERS),
      WEBDATA_PER_HOST_CONCURRENCY: String(WORKERS),
      WEBDATA_RATE_LIMIT: '100000',
      WEBDATA_RATE_BURST: '100000',
    },
  });
  const stopServer = async () => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return;
    server.child.kill('SIGTERM');
    await exited(server.child);
  };
  return {
    siteUrl: site.url,
    call: apiClient(server.url, server.apiKey!),
    stopServer,
    async close() {
      await stopServer();
      await site.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
