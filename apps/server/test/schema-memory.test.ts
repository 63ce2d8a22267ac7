/**
 * 3,000 distinct request schemas from one key (the reproduction of finding 2
 * of issue 16): memory stays bounded. Before the per-owner cache, the shared
 * Ajv instance kept every compiled schema: RSS went from 96 MB to 1.74 GB
 * over about 3,000 schemas, some 0.5 MB each, never freed.
 *
 * The server runs in this process (with its schema thread), so this process's
 * RSS is the server's plus the test runner's. What is asserted is the shape:
 * after the first 1,000 schemas (the cache full, the thread's heap grown)
 * the next 2,000 add less than 60 MB (before: about 1 GB). No workers run:
 * nothing is fetched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctSchema } from './hostile-requests.js';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ runWorkers: false, allowPrivateNetworks: false });
});

afterAll(async () => {
  await server?.close();
});

const MB = 1024 * 1024;

describe('memory under many distinct schemas from one key', () => {
  it('3,000 distinct schemas: memory levels off after the first 1,000', { timeout: 600_000 }, async () => {
    const rss: Record<number, number> = { 0: process.memoryUsage().rss };
    for (let sent = 0; sent < 3_000; sent += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          server.call('POST', '/api/v1/extract', {
            urls: ['https://example.invalid/page'],
            schema: distinctSchema(sent + i),
          }),
        ),
      );
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(202);
      if ((sent + 20) % 1_000 === 0) rss[sent + 20] = process.memoryUsage().rss;
    }
    const shown = Object.entries(rss).map(([n, bytes]) => `${n}: ${(bytes / MB).toFixed(0)} MB`);
    console.log(`RSS after n schemas — ${shown.join(', ')}`);
    expect(rss[3_000]! - rss[1_000]!).toBeLessThan(60 * MB);
    expect(rss[3_000]! - rss[0]!).toBeLessThan(200 * MB);
  });
});
