import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, getRun, waitForRun } from './api-client.js';
import { FixtureSite, page } from './fixture-site.js';
import { exited, type ServerProcess, spawnServer } from './server-process.js';

const PAGES = 60;
let site: FixtureSite;
let dataDir: string;
const children: ServerProcess[] = [];

beforeAll(async () => {
  const routes: ConstructorParameters<typeof FixtureSite>[0] = {};
  for (let i = 0; i < PAGES; i++) {
    const links = [`/p/${(i + 1) % PAGES}`, `/p/${(i + 7) % PAGES}`];
    // Every page answers after 150 ms, so the crawl is still going when the server is killed.
    routes[`/p/${i}`] = (_request, response) => {
      setTimeout(
        () => response.writeHead(200, { 'content-type': 'text/html' }).end(page(`Page ${i}`, links)),
        150,
      );
    };
  }
  site = new FixtureSite(routes);
  await site.start();
  dataDir = mkdtempSync(join(tmpdir(), 'webdata-crash-'));
});

afterAll(async () => {
  for (const { child } of children) child.kill('SIGKILL');
  await site?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

// Two server starts from the sources and a 60-page crawl each: on a loaded machine that can take a minute,
// so the tests have room (each wait in them is bounded on its own).
describe('crash recovery', () => {
  it('finishes a crawl interrupted by kill -9 with every page exactly once', async () => {
    const first = await spawnServer(dataDir, ['--allow-private-networks']);
    children.push(first);
    expect(first.apiKey).not.toBeNull();
    const call = apiClient(first.url, first.apiKey!);
    const created = await call('POST', '/api/v1/crawl', { url: `${site.url}/p/0`, limit: PAGES });
    expect(created.status).toBe(202);
    const runId = created.body.id as string;
    for (;;) {
      const run = await getRun(call, runId);
      if (run.stats.succeeded >= 10) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    first.child.kill('SIGKILL');
    await exited(first.child);
    const fetchedBeforeRestart = site.requests.length;
    expect(fetchedBeforeRestart).toBeLessThan(PAGES);

    const second = await spawnServer(dataDir, ['--allow-private-networks']);
    children.push(second);
    // A restart does not print the key again: only the start that made it does.
    expect(second.apiKey).toBeNull();
    const again = apiClient(second.url, first.apiKey!);
    const run = await waitForRun(again, runId, 60_000);
    expect(run.status).toBe('completed');
    expect(run.stats.total).toBe(PAGES);
    const { body } = await again('GET', `/api/v1/runs/${runId}/results?limit=200`);
    const urls = body.data.map((r: { url: string }) => r.url);
    expect(urls).toHaveLength(PAGES);
    expect(new Set(urls).size).toBe(PAGES);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  }, 180_000);

  it('stops gracefully on SIGTERM mid-crawl and finishes after a restart, each page once', async () => {
    const dir = join(dataDir, 'graceful');
    const first = await spawnServer(dir, ['--allow-private-networks']);
    children.push(first);
    expect(first.apiKey, first.output()).not.toBeNull();
    const call = apiClient(first.url, first.apiKey!);
    const created = await call('POST', '/api/v1/crawl', { url: `${site.url}/p/0`, limit: PAGES });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const runId = created.body.id as string;
    for (;;) {
      if ((await getRun(call, runId)).stats.succeeded >= 10) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    expect(first.output()).toMatch(/SIGTERM: shutting down/);

    const second = await spawnServer(dir, ['--allow-private-networks']);
    children.push(second);
    const again = apiClient(second.url, first.apiKey!);
    const run = await waitForRun(again, runId, 60_000);
    expect(run.status).toBe('completed');
    const { body } = await again('GET', `/api/v1/runs/${runId}/results?limit=200`);
    const urls = body.data.map((r: { url: string }) => r.url);
    expect(urls).toHaveLength(PAGES);
    expect(new Set(urls).size).toBe(PAGES);
    second.child.kill('SIGTERM');
    await exited(second.child);
  }, 180_000);
});
