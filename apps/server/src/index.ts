/**
 * `@webdata/server`: the Web Data Service as a library, for tests, benchmarks
 * and embedding. The command line (`webdata-server`) is `main.ts`.
 */
import type { ServerConfig } from './config.js';
import { createApiKey } from './keys.js';
import { WebDataServer } from './server.js';

export { defaultConfig, defaultDataDir, type ServerConfig } from './config.js';
export { createApiKey, verifyApiKey } from './keys.js';
// The Chromium lookup (system, then bundled) and its flags, for other packages' browser-driving tests.
export { CHROMIUM_ARGS, type ChromiumLocation, locateChromium } from './screenshots/index.js';
export { WebDataServer } from './server.js';

/** A running server as a test or embedding program sees it. */
export interface StartedServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** A fresh API key of a new owner. */
  apiKey: string;
  server: WebDataServer;
  /** Another key of a new owner (to test isolation between owners). */
  createKey(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts a server (by default on 127.0.0.1, an ephemeral port) with a fresh
 * API key.
 *
 * @example
 * ```ts
 * const server = await startServer({ dataDir: tmp, allowPrivateNetworks: true, logLevel: 'silent' });
 * await fetch(`${server.url}/api/v1/runs`, { headers: { 'x-api-key': server.apiKey } });
 * await server.close();
 * ```
 */
export async function startServer(
  options: Partial<ServerConfig> & { dataDir: string },
): Promise<StartedServer> {
  const server = new WebDataServer({ port: 0, ...options });
  const url = await server.listen();
  if (url === null) throw new Error('startServer serves the API: do not pass serveApi: false');
  const createKey = async () => (await createApiKey(server.store)).key;
  return { url, apiKey: await createKey(), server, createKey, close: () => server.close() };
}
