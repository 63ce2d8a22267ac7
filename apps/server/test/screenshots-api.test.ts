/**
 * Screenshots end to end through the HTTP API with the Chromium the server's
 * lookup finds (the system's, else the one bundled in `@sparticuz/chromium`):
 * crawl and extraction runs with `screenshot: true`, the signed URL (no API
 * key, `image/png`, cache headers, a PNG of the page's CSS size), tampering
 * and expiry (403), a deleted run (404), a result without a screenshot, and a
 * server whose Chromium is missing.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorBody, type Result, ScreenshotAccess } from '@webdata/contract';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../src/screenshots/index.js';
import { type ApiCall, apiClient, waitForRun } from './api-client.js';
import { FixtureSite, page } from './fixture-site.js';
import { startTestServer, type TestServer } from './test-server.js';

/** A page whose full size is fixed by CSS, so the PNG's size is known exactly. */
const TALL_PAGE = `<!doctype html><html><head><title>Tall page</title><style>
html, body { margin: 0; padding: 0; }
body { width: 1280px; height: 1800px; background: linear-gradient(#e0f0ff, #203040); font: 16px sans-serif; }
</style></head><body><main><h1 style="margin:0">Tall page</h1>
<p>A page of exactly 1280 by 1800 CSS pixels, rendered at scale 1 for the screenshot test.</p></main></body></html>`;

const PRODUCT_PAGE = `<!doctype html><html><head><title>Beacon Kettle</title>
<style>* { margin: 0; padding: 0; } body { width: 1280px; height: 1000px; }</style></head><body><main>
<h1>Beacon Kettle</h1><dl><dt>Price</dt><dd>€49.90</dd><dt>Capacity</dt><dd>1.7 litres</dd></dl>
<p>A stove-top kettle in brushed steel with a whistle that sings when the water boils.</p></main></body></html>`;

let site: FixtureSite;
let servers: TestServer[] = [];
let server: TestServer;
let call: ApiCall;

/** The crawl result of the tall page and the extraction result of the product page, both with screenshots. */
let tall: Result;
let product: Result;

/** Starts a test server that `afterAll` closes (removing its data directory). */
async function start(overrides: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const started = await startTestServer(overrides);
  servers.push(started);
  return started;
}

/** Creates a run, waits for it to end, and answers its results. */
async function runToEnd(
  api: ApiCall,
  path: string,
  body: Record<string, unknown>,
): Promise<{ run: any; results: Result[] }> {
  const created = await api('POST', path, body);
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const run = await waitForRun(api, created.body.id, 40_000);
  const listed = await api('GET', `/api/v1/runs/${run.id}/results?limit=100`);
  return { run, results: listed.body.data };
}

/** A GET without any API key (the way a browser or `<img>` fetches a signed URL). */
async function fetchWithoutKey(url: string) {
  const response = await request(url, { method: 'GET' });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, headers: response.headers, body };
}

async function signedUrlOf(api: ApiCall, result: Result): Promise<ScreenshotAccess> {
  const access = await api('GET', `/api/v1/runs/${result.run_id}/results/${result.id}/screenshot`);
  expect(access.status, JSON.stringify(access.body)).toBe(200);
  expect(access.headers['cache-control']).toBe('no-store');
  return ScreenshotAccess.parse(access.body);
}

/** `text` with the character at `index` replaced by a different one of the same kind (still a valid URL). */
function changeAt(text: string, index: number): string {
  const alphabet = /\d/.test(text[index]!)
    ? '0123456789'
    : 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const at = alphabet.indexOf(text[index]!);
  const replacement = alphabet[(at + 1) % alphabet.length]!;
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

/** Positions spread over a string: first, a few in between, last. */
function positions(length: number, from = 0): number[] {
  const spread = [from, from + 1, Math.floor((from + length) / 3), Math.floor((2 * (from + length)) / 3)];
  return [...new Set([...spread, length - 1])].filter((i) => i >= from && i < length);
}

async function expectForbidden(url: string, message: RegExp) {
  const response = await fetchWithoutKey(url);
  expect(response.status, url).toBe(403);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = ErrorBody.parse(JSON.parse(response.body.toString('utf8')));
  expect(body.error.code).toBe('forbidden');
  expect(body.error.message).toMatch(message);
}

beforeAll(async () => {
  site = new FixtureSite({
    '/tall': { body: TALL_PAGE },
    '/product': { body: PRODUCT_PAGE },
    '/plain': { body: page('Plain page') },
  });
  await site.start();
  server = await start();
  call = server.call;
  const [crawl, extraction] = await Promise.all([
    runToEnd(call, '/api/v1/crawl', { urls: [`${site.url}/tall`], screenshot: true }),
    runToEnd(call, '/api/v1/extract', {
      urls: [`${site.url}/product`],
      schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
      screenshot: true,
    }),
  ]);
  expect(crawl.run.status).toBe('completed');
  expect(extraction.run.status).toBe('completed');
  tall = crawl.results[0]!;
  product = extraction.results[0]!;
});

afterAll(async () => {
  // Closing a server closes its Chromium too, and removes its data directory.
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  await site?.stop();
});

describe('screenshots of a crawl', () => {
  it('serves a full-page PNG of the page’s CSS size through a signed URL that needs no key', async () => {
    expect(tall).toMatchObject({ status: 'succeeded', has_screenshot: true, screenshot_error: null });
    const access = await signedUrlOf(call, tall);
    expect(access.url.startsWith(`${server.url}/api/v1/signed/screenshots/${tall.run_id}/${tall.id}?`)).toBe(
      true,
    );
    const ttl = (Date.parse(access.expires_at) - Date.now()) / 1000;
    expect(ttl).toBeGreaterThan(800); // default 15 minutes
    expect(ttl).toBeLessThanOrEqual(900);

    const png = await fetchWithoutKey(access.url);
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['x-content-type-options']).toBe('nosniff');
    const maxAge = /^private, max-age=(\d+), immutable$/.exec(String(png.headers['cache-control']));
    expect(maxAge, String(png.headers['cache-control'])).not.toBeNull();
    expect(Number(maxAge![1])).toBeGreaterThan(800);
    expect(Number(maxAge![1])).toBeLessThanOrEqual(900);
    const info = decodePng(png.body);
    expect({ width: info.width, height: info.height }).toEqual({ width: 1280, height: 1800 });
  });

  it("takes a crawl run's screenshots in one browser context, another run's in another, and closes both after the runs", async () => {
    const screenshots = server.server.screenshots;
    const before = screenshots.contextsOpened;
    const first = await runToEnd(call, '/api/v1/crawl', {
      urls: [`${site.url}/plain`, `${site.url}/tall`, `${site.url}/product`],
      screenshot: true,
    });
    expect(first.results.map((r) => r.has_screenshot)).toEqual([true, true, true]);
    expect(screenshots.contextsOpened).toBe(before + 1);
    const second = await runToEnd(call, '/api/v1/crawl', {
      urls: [`${site.url}/plain`, `${site.url}/tall`],
      screenshot: true,
    });
    expect(second.results.map((r) => r.has_screenshot)).toEqual([true, true]);
    expect(screenshots.contextsOpened).toBe(before + 2);
    // Ended runs take no more screenshots: their contexts close after the idle time (5 s).
    for (let i = 0; i < 300 && screenshots.browserContexts.length > 0; i++) await sleep(50);
    expect(screenshots.browserContexts).toHaveLength(0);
    expect(screenshots.openRunContexts).toBe(0);
  });

  it('gives an extraction result a screenshot too', async () => {
    expect(product).toMatchObject({ status: 'succeeded', has_screenshot: true });
    expect(product.data).toEqual({ name: 'Beacon Kettle', price: 49.9 });
    const png = await fetchWithoutKey((await signedUrlOf(call, product)).url);
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    const info = decodePng(png.body);
    expect({ width: info.width, height: info.height }).toEqual({ width: 1280, height: 1000 });
  });

  it('does not give another owner the signed URL', async () => {
    const other = apiClient(server.url, await server.createKey());
    const response = await other('GET', `/api/v1/runs/${tall.run_id}/results/${tall.id}/screenshot`);
    expect(response.status).toBe(404);
    expect(ErrorBody.parse(response.body).error.code).toBe('not_found');
  });
});

describe('signed URL checks', () => {
  it('answers 403 forbidden when any one character of the signature, expiry, run id or result id changes', async () => {
    const { url } = await signedUrlOf(call, tall);
    expect((await fetchWithoutKey(url)).status).toBe(200);
    const parsed = new URL(url);
    const signature = parsed.searchParams.get('signature')!;
    const expires = parsed.searchParams.get('expires')!;
    const build = (runId: string, resultId: string, exp: string, sig: string) =>
      `${server.url}/api/v1/signed/screenshots/${runId}/${resultId}?expires=${exp}&signature=${sig}`;
    expect(build(tall.run_id, tall.id, expires, signature)).toBe(url);

    const tampered: string[] = [];
    for (const i of positions(signature.length))
      tampered.push(build(tall.run_id, tall.id, expires, changeAt(signature, i)));
    // Keep the expiry's first digit non-zero (a leading zero is another spelling, refused on its own).
    for (const i of positions(expires.length, 1))
      tampered.push(build(tall.run_id, tall.id, changeAt(expires, i), signature));
    // Past the `run_` / `res_` prefixes: the id characters.
    for (const i of positions(tall.run_id.length, 4))
      tampered.push(build(changeAt(tall.run_id, i), tall.id, expires, signature));
    for (const i of positions(tall.id.length, 4))
      tampered.push(build(tall.run_id, changeAt(tall.id, i), expires, signature));
    // A URL of one result does not open another's screenshot.
    tampered.push(build(product.run_id, product.id, expires, signature));
    expect(tampered.length).toBeGreaterThanOrEqual(18);
    for (const bad of tampered) {
      expect(bad).not.toBe(url);
      await expectForbidden(bad, /not valid/);
    }
    // A missing or extra query parameter is refused too.
    await expectForbidden(build(tall.run_id, tall.id, expires, '').replace('&signature=', ''), /not valid/);
    await expectForbidden(`${url}&x=1`, /not valid/);
    // And the untouched URL still works.
    expect((await fetchWithoutKey(url)).status).toBe(200);
  });

  it('answers 404 not_found for a deleted run’s screenshot, though the signature is still valid', async () => {
    const { results } = await runToEnd(call, '/api/v1/crawl', {
      urls: [`${site.url}/tall`],
      screenshot: true,
    });
    const result = results[0]!;
    expect(result.has_screenshot).toBe(true);
    const { url } = await signedUrlOf(call, result);
    expect((await fetchWithoutKey(url)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/runs/${result.run_id}`)).status).toBe(204);
    const gone = await fetchWithoutKey(url);
    expect(gone.status).toBe(404);
    expect(ErrorBody.parse(JSON.parse(gone.body.toString('utf8'))).error.code).toBe('not_found');
  });

  it('answers 403 once the URL has expired', async () => {
    const shortLived = await start({ signedUrlTtlSeconds: 1 });
    const api = apiClient(shortLived.url, shortLived.apiKey);
    const { results } = await runToEnd(api, '/api/v1/crawl', {
      urls: [`${site.url}/plain`],
      screenshot: true,
    });
    expect(results[0]!.has_screenshot).toBe(true);
    const access = await signedUrlOf(api, results[0]!);
    expect(Date.parse(access.expires_at) - Date.now()).toBeLessThanOrEqual(1000);
    await new Promise((resolve) => setTimeout(resolve, 2200));
    await expectForbidden(access.url, /expired/);
    // A fresh URL of the same result still works (`expires_at` is whole seconds, so allow one retry).
    let fresh = await fetchWithoutKey((await signedUrlOf(api, results[0]!)).url);
    if (fresh.status === 403) fresh = await fetchWithoutKey((await signedUrlOf(api, results[0]!)).url);
    expect(fresh.status).toBe(200);
    expect(fresh.headers['content-type']).toBe('image/png');
  });
});

describe('results without a screenshot', () => {
  it('answers 404 with a message for a result of a run without screenshots', async () => {
    const { results } = await runToEnd(call, '/api/v1/crawl', { urls: [`${site.url}/plain`] });
    const result = results[0]!;
    expect(result).toMatchObject({ status: 'succeeded', has_screenshot: false, screenshot_error: null });
    const response = await call('GET', `/api/v1/runs/${result.run_id}/results/${result.id}/screenshot`);
    expect(response.status).toBe(404);
    const body = ErrorBody.parse(response.body);
    expect(body.error.code).toBe('not_found');
    expect(body.error.message).toMatch(/no screenshot/);
    expect(body.error.message).toContain('"screenshot": true');
  });

  it('answers 404 saying the page failed, not to ask for screenshots, for a failed page of a run that asked', async () => {
    const { results } = await runToEnd(call, '/api/v1/crawl', {
      urls: [`${site.url}/missing`],
      screenshot: true,
    });
    const result = results[0]!;
    expect(result).toMatchObject({ status: 'failed', has_screenshot: false, screenshot_error: null });
    const response = await call('GET', `/api/v1/runs/${result.run_id}/results/${result.id}/screenshot`);
    expect(response.status).toBe(404);
    const body = ErrorBody.parse(response.body);
    expect(body.error.code).toBe('not_found');
    expect(body.error.message).toMatch(
      /^this result failed \(http_error\): HTTP 404 from .*\/missing; a failed page has no screenshot$/,
    );
    expect(body.error.message).not.toContain('"screenshot": true');
  });

  it('still crawls when Chromium is missing, saying on each result how to enable screenshots', async () => {
    const noBrowser = await start({ chromiumPath: '/nonexistent/chromium' });
    const api = apiClient(noBrowser.url, noBrowser.apiKey);
    const { run, results } = await runToEnd(api, '/api/v1/crawl', {
      urls: [`${site.url}/plain`, `${site.url}/tall`],
      screenshot: true,
    });
    expect(run.status).toBe('completed');
    expect(results).toHaveLength(2);
    for (const result of results) {
      expect(result.status).toBe('succeeded');
      expect(result.has_screenshot).toBe(false);
      expect(result.screenshot_error?.code).toBe('screenshot_unavailable');
      expect(result.screenshot_error?.message).toContain('/nonexistent/chromium');
      expect(result.screenshot_error?.message).toMatch(/apt-get install chromium|WEBDATA_CHROMIUM_PATH/);
      const response = await api('GET', `/api/v1/runs/${result.run_id}/results/${result.id}/screenshot`);
      expect(response.status).toBe(404);
      expect(response.body.error.message).toContain(result.screenshot_error!.message);
    }
  });
});
