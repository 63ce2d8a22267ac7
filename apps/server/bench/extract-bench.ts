/**
 * Extraction and screenshot throughput through the HTTP API, each next to
 * its in-process baseline measured in the same run:
 * 1. extraction results/s: the fixture pages served from 127.0.0.1, extracted
 *    by runs of up to 100 URLs (creation to terminal), against the default
 *    engine's `extract` in-process over the same pages and schema;
 * 2. per-field accuracy of the fixtures through the API (one run per case);
 * 3. screenshots/s: a crawl of fixed-size pages with `screenshot: true`,
 *    against `benchScreenshots(n)` (the ScreenshotService alone).
 *
 * `cd apps/server && npx tsx -e "import('./bench/extract-bench.ts').then(m => m.benchExtractionAndScreenshots())"`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExtractionSchema, Result } from '@webdata/contract';
import { measureAccuracy } from '../quality/extract/accuracy.js';
import { loadExtractionCases } from '../quality/extract/fixture-cases.js';
import { convertPage } from '../src/content/index.js';
import { DefaultExtractionEngine, type ExtractionEngine } from '../src/extract/index.js';
import { type StartedServer, startServer } from '../src/index.js';
import { type ApiCall, apiClient, waitForRun } from '../test/api-client.js';
import { type FixtureRoute, FixtureSite } from '../test/fixture-site.js';
import { benchScreenshots } from './screenshot-bench.js';

const EXTRACTION_RESULTS = Number(process.env.BENCH_EXTRACT_RESULTS ?? 200);
const SCREENSHOT_PAGES = Number(process.env.BENCH_SCREENSHOTS ?? 20);
const URLS_PER_RUN = 100;
const WORKERS = 16;

/**
 * One schema for every fixture page (a request carries one schema): the
 * properties most fixture pages have, none required, so no page fails and
 * each result costs a full extraction.
 */
const SHARED_SCHEMA: ExtractionSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    price: { type: 'number' },
    currency: { type: 'string' },
    author: { type: 'string' },
    published: { type: 'string', format: 'date-time' },
    location: { type: 'string' },
    rating: { type: 'number' },
    tags: { type: 'array', items: { type: 'string' } },
  },
};
const SHARED_QUERY = 'the main item: its name or title, price, author, date, location and tags';

/** A fixed-size page (1280×2000), the same shape as the in-process screenshot bench's page. */
const SCREENSHOT_PAGE = `<!doctype html><html><head><title>bench</title><style>
html, body, h1, p { margin: 0; padding: 0; }
body { width: 1280px; height: 2000px; font: 16px/1.5 sans-serif; background: #fafafa; }
</style></head><body><h1>Screenshot bench</h1>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(40)}</body></html>`;

async function resultsOf(call: ApiCall, runId: string): Promise<Result[]> {
  const results: Result[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const { body } = await call('GET', `/api/v1/runs/${runId}/results?limit=100${query}`);
    results.push(...body.data);
    cursor = body.next_cursor ?? null;
  } while (cursor);
  return results;
}

/** Creates the runs at once and waits for all to end; answers the seconds from the first creation to the last end. */
async function timeRuns(
  call: ApiCall,
  path: string,
  bodies: Record<string, unknown>[],
): Promise<{ seconds: number; results: Result[]; statuses: string[] }> {
  const started = performance.now();
  const runs = await Promise.all(
    bodies.map(async (body) => {
      const created = await call('POST', path, body);
      if (created.status !== 202) throw new Error(`run not created: ${JSON.stringify(created.body)}`);
      return waitForRun(call, created.body.id, 600_000);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const results = (await Promise.all(runs.map((run) => resultsOf(call, run.id)))).flat();
  return { seconds, results, statuses: runs.map((run) => run.status as string) };
}

function rate(count: number, seconds: number): string {
  return (count / seconds).toFixed(1);
}

/**
 * Prints extraction results/s and screenshots/s through the API next to
 * their in-process baselines, and the fixtures' per-field accuracy through
 * the API. Starts its own fixture site and servers (127.0.0.1) and stops them.
 */
export async function benchExtractionAndScreenshots(): Promise<void> {
  const cases = loadExtractionCases();
  const routes: Record<string, FixtureRoute> = { '/shot': { body: SCREENSHOT_PAGE } };
  for (const c of cases) routes[`/cases/${c.file}`] = { body: c.html };
  const site = new FixtureSite(routes);
  await site.start();
  const dataDir = mkdtempSync(join(tmpdir(), 'webdata-extract-bench-'));
  let server: StartedServer | undefined;
  try {
    server = await startServer({
      dataDir,
      allowPrivateNetworks: true,
      logLevel: 'warn',
      rateLimitPerSecond: 1_000_000,
      maxActiveRunsPerOwner: 1_000_000,
      rateLimitBurst: 1_000_000,
      workerConcurrency: WORKERS,
      perHostConcurrency: WORKERS,
    });
    const call = apiClient(server.url, server.apiKey);

    // 1. Extraction throughput: distinct URLs (?n=…) cycling over the fixture pages.
    const urls = Array.from({ length: EXTRACTION_RESULTS }, (_, n) => {
      const c = cases[n % cases.length]!;
      return `${site.url}/cases/${c.file}?n=${n}`;
    });
    // Warm-up (JIT, schema compilation, SQLite statements) outside the measurement.
    await timeRuns(call, '/api/v1/extract', [
      { urls: urls.slice(0, cases.length), schema: SHARED_SCHEMA, query: SHARED_QUERY },
    ]);
    const bodies: Record<string, unknown>[] = [];
    for (let i = 0; i < urls.length; i += URLS_PER_RUN) {
      bodies.push({ urls: urls.slice(i, i + URLS_PER_RUN), schema: SHARED_SCHEMA, query: SHARED_QUERY });
    }
    const extraction = await timeRuns(call, '/api/v1/extract', bodies);
    const succeeded = extraction.results.filter((r) => r.status === 'succeeded').length;

    // The baseline: the default engine alone on the same pages and schema, warm.
    const engine = new DefaultExtractionEngine();
    const inputs = urls.map((url, n) => ({
      url,
      html: cases[n % cases.length]!.html,
      schema: SHARED_SCHEMA,
      query: SHARED_QUERY,
    }));
    for (const input of inputs.slice(0, cases.length)) await engine.extract(input);
    const started = performance.now();
    for (const input of inputs) await engine.extract(input);
    const engineSeconds = (performance.now() - started) / 1000;
    // What else each result costs in the pipeline besides extraction: converting the page to markdown/text.
    for (const input of inputs.slice(0, cases.length)) convertPage(input.html, input.url);
    const convertStarted = performance.now();
    for (const input of inputs) convertPage(input.html, input.url);
    const convertSeconds = (performance.now() - convertStarted) / 1000;

    // 2. Accuracy through the API: one run per case with its own schema and query.
    const perCase = await Promise.all(
      cases.map(async (c) => {
        const run = await timeRuns(call, '/api/v1/extract', [
          { urls: [`${site.url}/cases/${c.file}`], schema: c.schema, ...(c.query ? { query: c.query } : {}) },
        ]);
        return [c.file, run.results[0]!] as const;
      }),
    );
    const byFile = new Map(perCase);
    const fromApi: ExtractionEngine = {
      extract: async ({ url }) => {
        const result = byFile.get(url.slice(url.lastIndexOf('/') + 1))!;
        return result.status === 'succeeded'
          ? { ok: true, data: result.data as Record<string, unknown> }
          : {
              ok: false,
              error: result.error ?? { code: 'internal', message: 'the failed result carried no error' },
            };
      },
    };
    const accuracy = await measureAccuracy(cases, fromApi);
    const inProcess = await measureAccuracy(cases, engine);

    // 3. Screenshots: warm the browser with one page, then a crawl of distinct fixed-size pages.
    const warm = await timeRuns(call, '/api/v1/crawl', [
      { urls: [`${site.url}/shot?warm`], screenshot: true },
    ]);
    if (!warm.results[0]?.has_screenshot) {
      throw new Error(`no screenshot: ${JSON.stringify(warm.results[0]?.screenshot_error)}`);
    }
    const shotUrls = Array.from({ length: SCREENSHOT_PAGES }, (_, i) => `${site.url}/shot?${i}`);
    const shots = await timeRuns(call, '/api/v1/crawl', [{ urls: shotUrls, screenshot: true }]);
    const withScreenshot = shots.results.filter((r) => r.has_screenshot).length;
    const screenshotConcurrency = server.server.config.screenshotConcurrency;
    await server.close();
    server = undefined;
    const baselineShots = await benchScreenshots(SCREENSHOT_PAGES);

    console.log('\nextraction and screenshots benchmark');
    console.log(
      `extraction via API: ${succeeded}/${EXTRACTION_RESULTS} results succeeded in ${bodies.length} run(s) ` +
        `of <= ${URLS_PER_RUN} URLs (${extraction.statuses.join(', ')}) in ${extraction.seconds.toFixed(2)} s = ` +
        `${rate(EXTRACTION_RESULTS, extraction.seconds)} results/s (${WORKERS} workers)`,
    );
    console.log(
      `  baseline, default engine in-process (same pages, schema): ${rate(inputs.length, engineSeconds)} results/s`,
    );
    console.log(
      `  for scale, convertPage in-process (each result also stores markdown/html/text): ${rate(inputs.length, convertSeconds)} pages/s; ` +
        `both in series: ${rate(inputs.length, engineSeconds + convertSeconds)} pages/s`,
    );
    console.log(
      `accuracy via API: ${accuracy.overall.correct}/${accuracy.overall.total} fields = ` +
        `${(100 * accuracy.overall.accuracy).toFixed(1)}% over ${cases.length} cases, ${accuracy.failedCases} failed ` +
        `(in-process: ${(100 * inProcess.overall.accuracy).toFixed(1)}%)`,
    );
    console.log(
      `screenshots via API: ${withScreenshot}/${SCREENSHOT_PAGES} pages in ${shots.seconds.toFixed(2)} s = ` +
        `${rate(SCREENSHOT_PAGES, shots.seconds)} screenshots/s (screenshotConcurrency ${screenshotConcurrency})`,
    );
    console.log(
      `  baseline, benchScreenshots(${SCREENSHOT_PAGES}) in-process: ${baselineShots.toFixed(1)} screenshots/s`,
    );
  } finally {
    await server?.close();
    await site.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
