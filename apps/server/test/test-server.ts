import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '../src/config.js';
import { type StartedServer, startServer } from '../src/index.js';
import { type ApiCall, apiClient } from './api-client.js';

/** A server started for a test, with its own data directory and an API client for its first key. */
export interface TestServer extends StartedServer {
  /** Calls the API with the server's first key (`apiKey`). */
  call: ApiCall;
  /** The fresh temporary data directory this server owns; `close()` removes it. */
  dataDir: string;
  /** Stops the server (and its Chromium, if any), then removes `dataDir`. */
  close(): Promise<void>;
}

/**
 * Starts a server for a cross-module test on 127.0.0.1 (an ephemeral port) in a
 * fresh temporary data directory, with settings every such test wants:
 *
 * - `validateResponses: true`: every answer is checked against its strict
 *   contract schema, so a test fails on any response that breaks the contract;
 * - `rateLimitPerSecond` / `rateLimitBurst` of 100 000: the key rate limit
 *   never gets in the way of a test's burst of calls (test the limit itself on
 *   a server of its own);
 * - `allowPrivateNetworks: true`: the fixture sites the tests crawl listen on
 *   127.0.0.1, which the SSRF guard would refuse — a test of the guard passes
 *   `allowPrivateNetworks: false`;
 * - `logLevel: 'silent'`.
 *
 * `overrides` replace any of these (the data directory is always the
 * helper's own). Call `close()` in `afterAll`.
 */
export async function startTestServer(
  overrides: Omit<Partial<ServerConfig>, 'dataDir'> = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webdata-test-'));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  let started: StartedServer;
  try {
    started = await startServer({
      allowPrivateNetworks: true,
      logLevel: 'silent',
      validateResponses: true,
      rateLimitPerSecond: 100_000,
      rateLimitBurst: 100_000,
      ...overrides,
      dataDir,
    });
  } catch (error) {
    removeDataDir();
    throw error;
  }
  return {
    ...started,
    call: apiClient(started.url, started.apiKey),
    dataDir,
    close: async () => {
      try {
        await started.close();
      } finally {
        removeDataDir();
      }
    },
  };
}
