/**
 * `webdata-server secret rotate` beside a running server (finding 6 of issue
 * 16), with real processes: the running server signs with the new secret from
 * its next URL on, URLs signed before the rotation stay valid, and every URL
 * the server handed out is still valid after a restart.
 *
 * Before the fix the running server kept signing with the retired secret; a
 * URL it handed out a second after the rotation, with the longest lifetime,
 * was refused (403) once the server restarted and read the file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LIMITS } from '@webdata/contract';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCall, apiClient, waitForRun } from './api-client.js';
import { FixtureSite } from './fixture-site.js';
import { exited, type ServerProcess, serverCommand, spawnServer } from './server-process.js';

const run = promisify(execFile);
let dataDir: string;
let site: FixtureSite;
let server: ServerProcess | undefined;

/** URLs live as long as they may, so one signed with the retired secret after the rotation is out of its reach. */
const START_ARGS = ['--allow-private-networks'];
const START_ENV = { WEBDATA_SIGNED_URL_TTL: String(LIMITS.maxSignedUrlTtlSeconds) };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'webdata-rotate-'));
  site = new FixtureSite({
    '/shot': {
      body: '<html><head><title>Shot</title></head><body style="width:400px;height:300px"><h1>Shot</h1></body></html>',
    },
  });
  await site.start();
});

afterAll(async () => {
  if (server) {
    server.child.kill('SIGKILL');
    await exited(server.child);
  }
  await site?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function stop(running: ServerProcess): Promise<void> {
  running.child.kill('SIGTERM');
  await exited(running.child);
}

/** A fresh signed URL of the result's screenshot, as the running server hands it out. */
async function signedUrl(call: ApiCall, runId: string, resultId: string): Promise<string> {
  const access = await call('GET', `/api/v1/runs/${runId}/results/${resultId}/screenshot`);
  expect(access.status, JSON.stringify(access.body)).toBe(200);
  return access.body.url as string;
}

/** The status of a signed URL fetched without a key, against whichever server listens now. */
async function statusOf(signed: string, base: string): Promise<number> {
  const url = new URL(signed);
  const response = await request(`${base}${url.pathname}${url.search}`);
  await response.body.dump();
  return response.statusCode;
}

describe('webdata-server secret rotate beside a running server', () => {
  it('takes effect on the running server and keeps every URL it handed out valid, after a restart too', {
    timeout: 300_000,
  }, async () => {
    server = await spawnServer(dataDir, START_ARGS, { env: START_ENV });
    const apiKey = server.apiKey!;
    const call = apiClient(server.url, apiKey);
    const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/shot`], screenshot: true });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    await waitForRun(call, created.body.id, 60_000);
    const [result] = (await call('GET', `/api/v1/runs/${created.body.id}/results`)).body.data;
    expect(result.has_screenshot, JSON.stringify(result)).toBe(true);

    const before = await signedUrl(call, result.run_id, result.id);
    expect(await statusOf(before, server.url)).toBe(200);

    const { stdout } = await run(process.execPath, [
      ...serverCommand(),
      'secret',
      'rotate',
      '--data-dir',
      dataDir,
    ]);
    expect(stdout).toMatch(/running ones too/);
    expect(stdout).toMatch(/URLs signed before stay valid until they expire/);
    // A second later (expiries are whole seconds): past what the retired secret may vouch for.
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    const after = await signedUrl(call, result.run_id, result.id);
    expect(await statusOf(before, server.url)).toBe(200);
    expect(await statusOf(after, server.url)).toBe(200);

    await stop(server);
    server = await spawnServer(dataDir, START_ARGS, { env: START_ENV });
    expect(await statusOf(before, server.url)).toBe(200);
    expect(await statusOf(after, server.url)).toBe(200);
    // The restarted server signs as the running one did after the rotation.
    const restarted = await signedUrl(apiClient(server.url, apiKey), result.run_id, result.id);
    expect(await statusOf(restarted, server.url)).toBe(200);
  });
});
