import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureSite, startFixtureSite } from './fixture-site.js';

/** The real server as a test sees it (the part of `@webdata/server`'s `startServer` used here). */
export interface RealServer {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** What a test of the extension runs against: the real server, a site for it to fetch, a workspace. */
export interface TestEnvironment {
  server: RealServer;
  site: FixtureSite;
  /** A folder with files full of the site's URLs (from test/fixtures/workspace). */
  workspace: string;
  /** A scratch folder removed by `close()`. */
  scratch: string;
  /** Passed to VS Code's extension host: where the suite finds the server, the key and the site. */
  env: Record<string, string>;
  /** Stops the server (its data kept), as a service going down. */
  stopServer(): Promise<void>;
  /** Starts the server again on the same port with the same data (its keys still good): `server` is then the new one. */
  startServerAgain(): Promise<void>;
  close(): Promise<void>;
}

const FIXTURES = new URL('../fixtures/workspace/', import.meta.url);

/**
 * Starts the real server (on 127.0.0.1, an ephemeral port, private addresses
 * allowed so it can fetch the fixture site), the fixture site, and writes
 * the workspace files with the site's address in them. `server` overrides
 * the server's settings (`ServerConfig` of `@webdata/server`).
 */
export async function startEnvironment(
  options: { server?: Record<string, unknown> } = {},
): Promise<TestEnvironment> {
  const scratch = mkdtempSync(join(tmpdir(), 'webdata-vscode-test-'));
  const site = await startFixtureSite();
  // A computed specifier: type-checking this package must not type-check the server's sources.
  const specifier = '@webdata/server';
  const { startServer } = (await import(specifier)) as {
    startServer(options: Record<string, unknown>): Promise<RealServer>;
  };
  const serverOptions = {
    dataDir: join(scratch, 'server-data'),
    allowPrivateNetworks: true,
    logLevel: 'silent',
    port: 0,
    ...options.server,
  };
  let server = await startServer(serverOptions);
  let stopped = false;
  const workspace = join(scratch, 'workspace');
  mkdirSync(workspace, { recursive: true });
  for (const name of readdirSync(FIXTURES)) {
    const text = readFileSync(new URL(name, FIXTURES), 'utf8').replaceAll('{{SITE}}', site.url);
    writeFileSync(join(workspace, name), text);
  }
  const environment: TestEnvironment = {
    server,
    site,
    workspace,
    scratch,
    env: {
      WEBDATA_TEST_BASE_URL: server.url,
      WEBDATA_TEST_API_KEY: server.apiKey,
      WEBDATA_TEST_SITE_URL: site.url,
      WEBDATA_TEST_WORKSPACE: workspace,
    },
    stopServer: async () => {
      stopped = true;
      await server.close();
    },
    startServerAgain: async () => {
      const { port } = new URL(server.url);
      const apiKey = server.apiKey;
      const again = await startServer({ ...serverOptions, port: Number(port) });
      // The key the extension holds: the same data, so still good.
      server = { ...again, apiKey };
      environment.server = server;
      stopped = false;
    },
    close: async () => {
      site.release();
      if (!stopped) await server.close();
      await site.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
  return environment;
}
