import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '../src/config.js';
import { type StartedServer, startServer } from '../src/index.js';
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from '../src/store/postgres/throwaway-postgres.test-support.js';
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
 * The store the API tests run against: the embedded SQLite file, or with
 * `WEBDATA_TEST_STORE=postgres` (the `postgres` vitest project) a fresh
 * database on a throwaway PostgreSQL cluster, so one API suite covers both.
 */
const testStore = process.env.WEBDATA_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/** The cluster of this test file's servers, started with the first and stopped with the last. */
let cluster: { started: Promise<ThrowawayPostgres>; users: number } | null = null;

async function databaseForTest(): Promise<{ url: string; release: () => Promise<void> }> {
  cluster ??= { started: startThrowawayPostgres(), users: 0 };
  const current = cluster;
  current.users++;
  const release = async () => {
    if (--current.users > 0) return;
    if (cluster === current) cluster = null;
    await (await current.started).stop();
  };
  try {
    return { url: await (await current.started).createDatabase(), release };
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * Starts a server for a cross-module test on 127.0.0.1 (an ephemeral port) in a
 * fresh temporary data directory, with settings every such test wants:
 *
 * - `validateResponses: true`: every answer is checked against its strict
 *   contract schema, so a test fails on any response that breaks the contract;
 * - `rateLimitPerSecond` / `rateLimitBurst` (and the 401 limit per address) of 100 000: the rate limits
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
  const database = testStore === 'postgres' ? await databaseForTest() : null;
  const removeDataDir = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await database?.release();
  };
  let started: StartedServer;
  try {
    started = await startServer({
      allowPrivateNetworks: true,
      logLevel: 'silent',
      validateResponses: true,
      rateLimitPerSecond: 100_000,
      rateLimitBurst: 100_000,
      authFailureRatePerSecond: 100_000,
      authFailureBurst: 100_000,
      // Suites create runs freely; the limit has a test of its own (errors.test.ts).
      maxActiveRunsPerOwner: 100_000,
      ...overrides,
      dataDir,
      databaseUrl: database?.url,
    });
  } catch (error) {
    await removeDataDir();
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
        await removeDataDir();
      }
    },
  };
}
