import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, getRun, waitForRun } from './api-client.js';
import { FixtureSite, page } from './fixture-site.js';
import { exited, type ServerProcess, spawnServer } from './server-process.js';

const PAGES = 60;

/**
 * About 6 MB of prose in paragraphs, most words different, with a word of its own at its start and
 * end: in three formats and indexed, its write (~25 MB) goes to the batch write thread.
 */
function bigPage(): string {
  const paragraphs: string[] = [];
  for (let p = 0, length = 0; length < 6_000_000; p += 1) {
    const words = Array.from({ length: 200 }, (_, w) => `w${((p * 200 + w) * 7919) % 100_003}`);
    const paragraph = `<p>${words.join(' ')}</p>`;
    paragraphs.push(paragraph);
    length += paragraph.length;
  }
  return `<!doctype html><html><head><title>Big</title></head><body><main><h1>Big</h1><p>firstmarker</p>
${paragraphs.join('\n')}<p>lastmarker</p></main></body></html>`;
}
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
  routes['/big'] = { body: bigPage() };
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

  it('loses nothing of a large page killed during its write: after a restart it is stored and found whole, once', async () => {
    const dir = join(dataDir, 'large');
    const first = await spawnServer(dir, ['--allow-private-networks']);
    children.push(first);
    const call = apiClient(first.url, first.apiKey!);
    const wal = join(dir, 'webdata.sqlite-wal');
    const walBytes = () => {
      try {
        return statSync(wal).size;
      } catch {
        return 0;
      }
    };
    const before = walBytes();
    const created = await call('POST', '/api/v1/crawl', {
      urls: [`${site.url}/big`],
      formats: ['markdown', 'html', 'text'],
      collection: 'big',
    });
    expect(created.status).toBe(202);
    const runId = created.body.id as string;
    // The page's transaction is under way once the log has grown by more than a few MB (nothing else
    // writes that much; a transaction spills its pages into the log before it commits): kill it there.
    while (walBytes() < before + 4_000_000) {
      if (first.child.exitCode !== null) throw new Error(`server exited: ${first.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    first.child.kill('SIGKILL');
    await exited(first.child);
    // Killed before or after its commit (usually before), never in between: no result, or the whole one.
    const db = new BetterSqlite3(join(dir, 'webdata.sqlite'));
    const stored = db.prepare('SELECT count(*) FROM results').pluck().get() as number;
    const indexed = db.prepare('SELECT count(*) FROM search_documents').pluck().get() as number;
    db.close();
    expect(indexed).toBe(stored);

    const second = await spawnServer(dir, ['--allow-private-networks']);
    children.push(second);
    const again = apiClient(second.url, first.apiKey!);
    const run = await waitForRun(again, runId, 90_000);
    expect(run.status).toBe('completed');
    const { body } = await again('GET', `/api/v1/runs/${runId}/results?include=content&format=text`);
    expect(body.data).toHaveLength(1);
    expect(body.data[0].content).toMatch(/^[\s\S]*firstmarker[\s\S]*lastmarker\s*$/);
    for (const word of ['firstmarker', 'lastmarker']) {
      const hits = await again('POST', '/api/v1/search', { query: word, collection: 'big' });
      expect(hits.body.data.map((hit: { url: string }) => hit.url)).toEqual([`${site.url}/big`]);
    }
    second.child.kill('SIGTERM');
    await exited(second.child);
  }, 180_000);
});
