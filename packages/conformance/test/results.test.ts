import {
  Result,
  ResultContent,
  ResultContentLenient,
  ResultLenient,
  ResultPage,
  ResultPageLenient,
  ScreenshotAccess,
  ScreenshotAccessLenient,
} from '@webdata/contract';
import { describe, expect, it } from 'vitest';
import { createRun, expectError, listResults, pollRun, preview, readAs } from '../src/checks.js';
import { FIXTURE_PRODUCT } from '../src/fixture-site.js';
import { apiClient } from '../src/http-client.js';
import { requireFixture } from '../src/paths.js';
import { conformanceTarget } from '../src/target.js';

const target = conformanceTarget();
const call = apiClient(target.baseUrl, target.apiKey);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Crawls `paths` of the fixture with `options` and answers the completed run's results. */
async function crawled(site: string, paths: string[], options: Record<string, unknown> = {}) {
  const run = await pollRun(
    call,
    (await createRun(call, '/api/v1/crawl', { urls: paths.map((p) => `${site}${p}`), ...options })).id,
  );
  expect(run.status).toBe('completed');
  return { run, results: await listResults(call, run.id) };
}

describe('results and content', () => {
  it('[spec §4 GET /runs/{runId}/results] lists the results of a completed run', async (context) => {
    const site = requireFixture(target, context);
    const { run } = await crawled(site, ['/a', '/b']);
    const response = await call('GET', `/api/v1/runs/${run.id}/results`);
    expect(response.status).toBe(200);
    const page = readAs(target, ResultPageLenient, ResultPage, response.body);
    expect(page.data).toHaveLength(2);
    for (const result of page.data) {
      const read = readAs(target, ResultLenient, Result, result);
      expect(read.run_id ?? run.id).toBe(run.id);
      expect([`${site}/a`, `${site}/b`]).toContain(read.url);
    }
    const paged = ResultPageLenient.parse((await call('GET', `/api/v1/runs/${run.id}/results?limit=1`)).body);
    expect(paged.data).toHaveLength(1);
    expect(paged.next_cursor).toEqual(expect.any(String));
  });

  it('[api-v1 Results] content as JSON by default and raw by Accept', async (context) => {
    const site = requireFixture(target, context);
    const { run, results } = await crawled(site, ['/a'], { formats: ['markdown', 'html', 'text', 'links'] });
    const base = `/api/v1/runs/${run.id}/results/${results[0]!.id}/content`;

    const json = await call('GET', base);
    expect(json.status).toBe(200);
    expect(String(json.headers['content-type'])).toMatch(/application\/json/);
    const content = readAs(target, ResultContentLenient, ResultContent, json.body);
    expect(content.format).toBe('markdown');
    expect(content.content).toEqual(expect.stringContaining('Page A'));

    for (const format of ['html', 'text']) {
      const other = ResultContentLenient.parse((await call('GET', `${base}?format=${format}`)).body);
      expect(other.format).toBe(format);
      expect(other.content).toEqual(expect.stringContaining('Page A'));
    }
    const links = ResultContentLenient.parse((await call('GET', `${base}?format=links`)).body);
    expect(links.content).toEqual(expect.arrayContaining([`${site}/b`]));

    for (const [accept, type] of [
      ['text/markdown', /^text\/markdown/],
      ['text/plain', /^text\/plain/],
      ['text/html', /^text\/html/],
    ] as const) {
      const raw = await call('GET', base, { headers: { accept } });
      expect(raw.status).toBe(200);
      expect(String(raw.headers['content-type'])).toMatch(type);
      expect(raw.text).toContain('Page A');
      expect(raw.text.trimStart().startsWith('{')).toBe(false);
    }
  });

  it('[api-v1 Results] a format the result was not made with answers 404', async (context) => {
    const site = requireFixture(target, context);
    const { run, results } = await crawled(site, ['/c'], { formats: ['markdown'] });
    expectError(
      target,
      await call('GET', `/api/v1/runs/${run.id}/results/${results[0]!.id}/content?format=json`),
      404,
      'not_found',
    );
  });

  it('[spec §4 POST /extract] an extraction fills the schema; its content is the extracted object', async (context) => {
    const site = requireFixture(target, context);
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, price: { type: 'number' } },
      required: ['name'],
    };
    const created = await createRun(call, '/api/v1/extract', {
      urls: [`${site}/product`],
      query: 'the product name and its price',
      schema,
    });
    const run = await pollRun(call, created.id);
    expect(run.status).toBe('completed');
    const [result] = await listResults(call, run.id);
    const data = result?.data as { name?: unknown; price?: unknown } | null | undefined;
    expect(data?.name).toEqual(expect.stringContaining('Kettle'));
    if (data?.price !== undefined) expect(typeof data.price).toBe('number');
    if (target.ownServer) expect(data).toEqual({ name: FIXTURE_PRODUCT.name, price: FIXTURE_PRODUCT.price });
    const content = await call('GET', `/api/v1/runs/${run.id}/results/${result!.id}/content?format=json`);
    const read = readAs(target, ResultContentLenient, ResultContent, content.body);
    expect(read.content).toEqual(data);
  });
});

describe('screenshots', () => {
  it('[api-v1 Results] a result without a screenshot answers 404 on the screenshot endpoint', async (context) => {
    const site = requireFixture(target, context);
    const { run, results } = await crawled(site, ['/c']);
    expectError(
      target,
      await call('GET', `/api/v1/runs/${run.id}/results/${results[0]!.id}/screenshot`),
      404,
      'not_found',
    );
  });

  it('[spec §4 rule 3] the screenshot endpoint returns a signed URL, not the image; the URL works without a key and answers 403 when altered', async (context) => {
    const site = requireFixture(target, context);
    const { run, results } = await crawled(site, ['/a'], { screenshot: true });
    const result = results[0]!;
    expect(result.has_screenshot, preview(result)).not.toBe(false);
    const access = await call('GET', `/api/v1/runs/${run.id}/results/${result.id}/screenshot`);
    expect(access.status, preview(access.body)).toBe(200);
    expect(String(access.headers['content-type'])).toMatch(/application\/json/);
    expect(access.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(false);
    const { url, expires_at } = readAs(target, ScreenshotAccessLenient, ScreenshotAccess, access.body);
    if (expires_at !== undefined) expect(Date.parse(expires_at)).toBeGreaterThan(Date.now());

    // [api-v1 Results] signed URL works without a key …
    const image = await call('GET', url, { apiKey: null });
    expect(image.status, image.text.slice(0, 200)).toBe(200);
    expect(String(image.headers['content-type'])).toMatch(/^image\/png/);
    expect(image.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

    // … and 403 when altered: signature, expiry or path.
    const signed = new URL(url);
    const altered: string[] = [];
    for (const [name, change] of [
      ['signature', (v: string) => `${v.slice(0, -2)}${v.endsWith('AA') ? 'BB' : 'AA'}`],
      ['expires', (v: string) => String(Number(v) + 60)],
    ] as const) {
      const copy = new URL(signed);
      const value = copy.searchParams.get(name);
      if (value !== null) {
        copy.searchParams.set(name, change(value));
        altered.push(copy.toString());
      }
    }
    const otherPath = new URL(signed);
    otherPath.pathname = otherPath.pathname.replace(
      result.id,
      `${result.id.slice(0, -1)}${result.id.endsWith('x') ? 'y' : 'x'}`,
    );
    altered.push(otherPath.toString());
    if (altered.length < 2) {
      // A foreign server's signed URL need not use these names; altering its last character must still fail.
      altered.push(`${url.slice(0, -1)}${url.endsWith('A') ? 'B' : 'A'}`);
    }
    for (const tampered of altered) {
      const response = await call('GET', tampered, { apiKey: null });
      expect(response.status, tampered).toBe(403);
      if (target.ownServer) expectError(target, response, 403, 'forbidden');
    }
  });
});
