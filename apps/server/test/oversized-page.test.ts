import type { Result } from '@webdata/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConvertInput } from '../src/content/convert-fetched.js';
import { waitForRun } from './api-client.js';
import { FixtureSite, page } from './fixture-site.js';
import { startTestServer, type TestServer } from './test-server.js';

// Counts conversions on this thread, where the server's HTTP layer runs. The converter threads load
// their own copy of the module, which this mock does not reach.
const mainThread = vi.hoisted(() => ({ conversions: 0 }));
vi.mock('../src/content/convert-fetched.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/content/convert-fetched.js')>();
  return {
    ...actual,
    convertFetched: (input: ConvertInput) => {
      mainThread.conversions += 1;
      return actual.convertFetched(input);
    },
  };
});

/**
 * 5.6 MB of HTML, under the 10 MiB download limit, whose 200,000 links need more than a converter
 * thread's heap. Converted again on the main thread, it held every request (`/healthz` too) for 2 s.
 */
const manyLinks = `<html><body>${Array.from({ length: 200_000 }, (_, i) => `<a href="/l/${i}">l</a>`).join('')}</body></html>`;

/** About 3 Mi characters of prose: its Markdown is about as long. */
const paragraph = `<p>${'lorem ipsum dolor sit amet consectetur '.repeat(50)}</p>\n`;
const bigText = (i: number) =>
  `<html><head><title>Big ${i}</title></head><body><main>${paragraph.repeat(Math.ceil((3 * 1024 * 1024) / paragraph.length))}</main></body></html>`;

let site: FixtureSite;
let server: TestServer;

beforeAll(async () => {
  site = new FixtureSite({
    '/many-links': { body: manyLinks },
    '/small': { body: page('Small page') },
    ...Object.fromEntries([1, 2, 3, 4].map((i) => [`/big/${i}`, { body: bigText(i) }])),
  });
  await site.start();
  server = await startTestServer({ convertThreads: 1 });
});

afterAll(async () => {
  await server?.close();
  await site?.stop();
});

describe('a page too large for its converter thread', () => {
  it('fails alone as too_large, is never converted on the main thread, and the next page converts', async () => {
    const { call } = server;
    mainThread.conversions = 0;
    const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/many-links`] });
    const run = await waitForRun(call, created.body.id, 60_000);
    expect(run.status).toBe('failed');
    const [result] = (await call('GET', `/api/v1/runs/${run.id}/results`)).body.data as Result[];
    expect(result).toMatchObject({ status: 'failed', error: { code: 'too_large' } });
    expect(result!.error!.message).toMatch(/too large to convert/);

    // A new converter thread takes the next page.
    const next = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/small`] });
    expect((await waitForRun(call, next.body.id)).status).toBe('completed');
    expect(mainThread.conversions).toBe(0);
  }, 90_000);
});

describe('results with their content', () => {
  it('end a page at 8 Mi characters of content, and the cursor goes on to the rest', async () => {
    const { call } = server;
    const urls = [1, 2, 3, 4].map((i) => `${site.url}/big/${i}`);
    const created = await call('POST', '/api/v1/crawl', { urls });
    expect((await waitForRun(call, created.body.id, 60_000)).status).toBe('completed');
    const seen: string[] = [];
    const pageSizes: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `include=content&format=markdown&limit=200${cursor ? `&cursor=${cursor}` : ''}`;
      const { status, body } = await call('GET', `/api/v1/runs/${created.body.id}/results?${query}`);
      expect(status).toBe(200);
      let chars = 0;
      for (const result of body.data as Result[]) {
        seen.push(result.url);
        expect(result.content).toMatch(/^# Big|lorem ipsum/);
        chars += (result.content as string).length;
      }
      // Over the budget only when one result alone is.
      if (body.data.length > 1) expect(chars).toBeLessThanOrEqual(8 * 1024 * 1024);
      pageSizes.push(body.data.length);
      cursor = body.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual(urls.sort());
    expect(pageSizes).toEqual([2, 2]);
  }, 90_000);
});
