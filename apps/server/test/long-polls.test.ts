/**
 * One key cannot hold the server's long polls: every held poll is checked on each change it waits
 * for, so 500 of them made another key's crawl cost 500 store reads a page (its 1,500-page deep crawl
 * took twice as long). A key holds at most MAX_HELD_LONG_POLLS_PER_OWNER at once; the next is 429.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HELD_LONG_POLLS_PER_OWNER } from '../src/http/long-poll-slots.js';
import { apiClient } from './api-client.js';
import { FixtureSite, page, slowRoute } from './fixture-site.js';
import { startTestServer, type TestServer } from './test-server.js';

let site: FixtureSite;
let server: TestServer;

beforeAll(async () => {
  site = new FixtureSite({ '/slow': slowRoute(20_000), '/fast': { body: page('Fast') } });
  await site.start();
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
  await site?.stop();
});

describe('long polls of one key', () => {
  it('holds at most the cap at once; the next is 429 with Retry-After, other keys are not affected', async () => {
    const created = await server.call('POST', '/api/v1/crawl', { urls: [`${site.url}/slow`] });
    expect(created.status).toBe(202);
    const runId = created.body.id;
    const stop = new AbortController();
    const held = Array.from({ length: MAX_HELD_LONG_POLLS_PER_OWNER }, (_, i) =>
      request(`${server.url}${i % 2 ? `/api/v1/runs/${runId}?wait=20` : '/api/v1/runs?wait=20'}`, {
        headers: { 'x-api-key': server.apiKey },
        signal: stop.signal,
      }).catch(() => null),
    );
    try {
      // The polls are held once the server has read them.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const refused = await server.call('GET', `/api/v1/runs/${runId}?wait=1`);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(refused.headers['retry-after']).toBe('1');
      expect((await server.call('GET', '/api/v1/runs?wait=1')).status).toBe(429);
      // Without wait the key is served as ever, and another key may hold its own polls.
      expect((await server.call('GET', `/api/v1/runs/${runId}`)).status).toBe(200);
      const other = apiClient(server.url, await server.createKey());
      expect([200, 304]).toContain((await other('GET', '/api/v1/runs?wait=1')).status);
    } finally {
      stop.abort();
      await Promise.all(held);
    }
    // Once the held polls end, the key may poll again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([200, 304]).toContain((await server.call('GET', '/api/v1/runs?wait=1')).status);
    await server.call('POST', `/api/v1/runs/${runId}/cancel`);
  });
});
