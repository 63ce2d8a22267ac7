import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, lastValueFrom, toArray } from 'rxjs';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConflictError,
  collectRun,
  createClient,
  eachEvent,
  NotFoundError,
  type RunEvent,
  RunFailedError,
  RunNotFinishedError,
  RunTimeoutError,
  type WebDataClient,
} from '../src/index.js';
import { type FixtureSite, startFixtureSite } from './fixture-site.js';
import { type RealServer, startRealServer } from './real-server.js';

let site: FixtureSite;
let server: RealServer;
let client: WebDataClient;
let dataDir: string;
/** Every request the client sent, as `METHOD path`, recorded by a dispatcher interceptor. */
const sent: { line: string; at: number }[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
  dataDir = mkdtempSync(join(tmpdir(), 'webdata-core-it-'));
  server = await startRealServer({
    dataDir,
    allowPrivateNetworks: true,
    logLevel: 'silent',
    rateLimitPerSecond: 10_000,
    rateLimitBurst: 10_000,
  });
  const dispatcher = new Agent({ connections: 64 }).compose((dispatch) => (options, handler) => {
    sent.push({ line: `${options.method} ${options.path}`, at: Date.now() });
    return dispatch(options, handler);
  });
  client = createClient({ baseUrl: server.url, apiKey: server.apiKey, dispatcher, poll: { initialMs: 50 } });
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await site?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Requests of the batched run feed (`GET /runs?…`) sent since `mark`. */
const feedReads = (mark: number) => sent.slice(mark).filter((s) => s.line.startsWith('GET /api/v1/runs?'));

const runGets = (id: string) =>
  sent.filter((s) => s.line.startsWith(`GET /api/v1/runs/${id}`) && !s.line.includes('/results'));

describe('the client against the real server', () => {
  it('extracts typed data end to end', async () => {
    const Product = z.object({ name: z.string(), price: z.number().optional() });
    const events: RunEvent<z.infer<typeof Product>>[] = [];
    const outcome = await collectRun(
      client
        .extract({ urls: [`${site.url}/product`], query: 'the product name and price', schema: Product })
        .pipe(
          filter((event) => {
            events.push(event);
            return true;
          }),
        ),
    );
    expect(outcome.run.status).toBe('completed');
    expect(events[0]?.type).toBe('created');
    expect(events.at(-1)?.type).toBe('completed');
    expect(outcome.invalidResults).toEqual([]);
    expect(outcome.results).toHaveLength(1);
    const name: string | undefined = outcome.results[0]?.data?.name;
    expect(name).toContain('Brass Desk Lamp');
  });

  it('crawls known URLs end to end and reads a result content', async () => {
    const outcome = await collectRun(client.crawl({ urls: [`${site.url}/a`, `${site.url}/b`] }));
    expect(outcome.run.status).toBe('completed');
    expect(outcome.results.map((r) => r.url).sort()).toEqual([`${site.url}/a`, `${site.url}/b`]);
    expect(outcome.results.every((r) => r.status === 'succeeded')).toBe(true);
    const first = outcome.results[0]!;
    const content = await client.runs.content(outcome.run.id, first.id, { format: 'markdown' });
    expect(String(content.content)).toContain('Hello from');
    expect(client.capabilities.batchLongPoll).toBe(true);
  });

  it('expands content client-side, searches what was crawled, and reports a missing screenshot', async () => {
    const { run } = await collectRun(
      client.crawl({ urls: [`${site.url}/d`], collection: 'core-it', formats: ['markdown', 'text'] }),
    );
    const [result] = await client.runs
      .results(run.id, { expand: ['content'], contentFormat: 'text' })
      .toArray();
    expect(String(result?.content)).toContain('The deepest page.');
    const answer = await client.search({ query: 'deepest', collection: 'core-it' });
    expect(answer.data.map((hit) => hit.url)).toContain(`${site.url}/d`);
    await expect(client.runs.screenshot(run.id, result!.id)).rejects.toBeInstanceOf(NotFoundError);
    const collections = await client.collections.list();
    expect(collections.data.map((c) => c.name)).toContain('core-it');
    await client.runs.delete(run.id);
    await expect(client.runs.get(run.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("downloads a result's screenshot through its signed URL, without the API key", async () => {
    const { run, results } = await collectRun(client.crawl({ urls: [`${site.url}/a`], screenshot: true }));
    const result = results[0]!;
    expect(result.has_screenshot, JSON.stringify(result.screenshot_error)).toBe(true);
    const before = sent.length;
    const png = await client.runs.screenshotPng(run.id, result.id);
    expect(png).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(png.subarray(0, 8)).toString('hex')).toBe('89504e470d0a1a0a'); // the PNG signature
    expect(png.length).toBeGreaterThan(1_000);
    expect(sent.slice(before).map((s) => s.line.split('?')[0])).toEqual([
      `GET /api/v1/runs/${run.id}/results/${result.id}/screenshot`,
      `GET /api/v1/signed/screenshots/${run.id}/${result.id}`,
    ]);
    await client.runs.delete(run.id);
    await expect(client.runs.screenshotPng(run.id, result.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("reads a search hit's whole document, as Markdown or text, promise and observable", async () => {
    await collectRun(client.crawl({ urls: [`${site.url}/d`, `${site.url}/a`], collection: 'core-docs' }));
    const [hit] = (await client.search({ query: 'deepest', collection: 'core-docs' })).data;
    expect(hit?.url).toBe(`${site.url}/d`);
    const markdown = await client.collections.document('core-docs', hit!.document_id!);
    expect(markdown).toMatchObject({
      id: hit!.document_id,
      url: hit!.url,
      title: 'Page D',
      format: 'markdown',
    });
    expect(markdown.content).toMatch(/^# Page D$/m);
    expect(markdown.content).toContain('The deepest page.');
    const emitted = await lastValueFrom(
      client.collections.document$('core-docs', hit!.document_id!, { format: 'text' }).pipe(toArray()),
    );
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toMatchObject({ format: 'text' });
    expect(emitted[0]!.content).toContain('The deepest page.');
    expect(emitted[0]!.content).not.toContain('#');
    await expect(client.collections.document('core-docs', 'doc_nothing')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(client.collections.document('nowhere', hit!.document_id!)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(client.search({ query: 'deepest', collection: 'nowhere' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('streams every run and every search hit, pageSize of them a request', async () => {
    const urls = ['a', 'b', 'c'].map((path) => `${site.url}/${path}`);
    await collectRun(client.crawl({ urls, collection: 'core-paged' }));
    await collectRun(client.crawl({ urls: [`${site.url}/d`] }));
    const mark = sent.length;
    const hits = await client.searchAll({ query: 'hello', collection: 'core-paged', pageSize: 1 }).toArray();
    expect(hits.map((hit) => hit.url).sort()).toEqual(urls);
    // One hit a request: three pages (the last says there is no next).
    const searches = sent.slice(mark).filter((s) => s.line === 'POST /api/v1/search');
    expect(searches).toHaveLength(3);
    const everyRun = (await client.runs.list({ limit: 200 })).data.map((run) => run.id);
    expect(everyRun.length).toBeGreaterThan(1);
    const listed = await client.runs.listAll({ pageSize: 1 }).toArray();
    expect(listed.map((run) => run.id)).toEqual(everyRun);
    const pageReads = sent.slice(mark).filter((s) => s.line.startsWith('GET /api/v1/runs?'));
    expect(pageReads.filter((s) => s.line.includes('limit=1')).length).toBeGreaterThanOrEqual(
      everyRun.length,
    );
    // The older name of the page size still works.
    const older = await client.searchAll({ query: 'hello', collection: 'core-paged', limit: 2 }).toArray();
    expect(older.map((hit) => hit.url).sort()).toEqual(urls);
  });

  it('parses a z.date() field of an extraction into a Date', async () => {
    const Article = z.object({ headline: z.string(), datePublished: z.date() });
    const { results, invalidResults } = await collectRun(
      client.extract({
        urls: [`${site.url}/article`],
        query: 'headline and publication date',
        schema: Article,
      }),
    );
    expect(invalidResults).toEqual([]);
    const published: Date | undefined = results[0]?.data?.datePublished;
    expect(published).toEqual(new Date('2026-11-20T08:30:00Z'));
  });

  it("carries each page's Markdown in the results of a crawl, in one read per page of results", async () => {
    const mark = sent.length;
    const { run, results } = await collectRun(
      client.crawl(
        { urls: [`${site.url}/a`, `${site.url}/b`, `${site.url}/nowhere`] },
        { content: 'markdown' },
      ),
    );
    // The page that failed has no content: null, and the listing goes on.
    expect(
      results.map((r) => [r.url, r.content === null ? null : String(r.content).includes('# Page')]).sort(),
    ).toEqual([
      [`${site.url}/a`, true],
      [`${site.url}/b`, true],
      [`${site.url}/nowhere`, null],
    ]);
    const reads = sent.slice(mark).filter((s) => s.line.includes(`/runs/${run.id}/results`));
    expect(reads).toHaveLength(1);
    expect(reads[0]?.line).toContain('include=content');
    // A format the run did not store is null for every result, and the listing goes on.
    const html = await client.runs.results(run.id, { content: 'html' }).toArray();
    expect(html.map((r) => r.content)).toEqual([null, null, null]);
  });

  it('refuses to read the results of an unfinished run unless asked to', async () => {
    const held = await startFixtureSite();
    try {
      const run = await client.runs.start({ type: 'crawl', urls: [`${held.url}/hold/r`, `${site.url}/c`] });
      await until(() => held.requests.includes('/hold/r'));
      const error = await client.runs
        .results(run.id)
        .toArray()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunNotFinishedError);
      expect((error as RunNotFinishedError).run.id).toBe(run.id);
      const partial = await client.runs.results(run.id, { unfinished: 'read' }).toArray();
      expect(partial.length).toBeLessThan(2);
      held.release();
      await collectRun(client.runs.follow(run.id));
      expect(await client.runs.results(run.id).toArray()).toHaveLength(2);
    } finally {
      await held.close();
    }
  });

  it('waits for a run with a promise, without reading its results; a deadline leaves it going', async () => {
    const held = await startFixtureSite();
    try {
      const started = await client.runs.start({
        type: 'crawl',
        urls: [`${held.url}/hold/w`, `${site.url}/c`],
      });
      await until(() => held.requests.includes('/hold/w'));
      // The run stays held until release(), so a deadline of seconds still
      // ends while it runs, and leaves its first poll time to answer on a
      // loaded machine (at 200 ms the CI once timed out before any snapshot,
      // and the error carried no run).
      const late = await client.runs.wait(started.id, { deadlineMs: 2_000 }).catch((e: unknown) => e);
      expect(late).toBeInstanceOf(RunTimeoutError);
      expect((late as RunTimeoutError).run?.status).toBe('running');
      const mark = sent.length;
      const waiting = client.runs.wait(started.id);
      let settled = false;
      void waiting.finally(() => {
        settled = true;
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(settled).toBe(false);
      held.release();
      const run = await waiting;
      expect(run).toMatchObject({ id: started.id, status: 'completed' });
      expect(sent.slice(mark).filter((s) => s.line.includes('/results'))).toEqual([]);
    } finally {
      await held.close();
    }
  });

  it('says why the first page of a failed run failed', async () => {
    const Isbn = z.object({ isbn_number: z.string() });
    const error = await collectRun(
      client.extract({ urls: [`${site.url}/c`], query: 'the ISBN number', schema: Isbn }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunFailedError);
    const failed = error as RunFailedError;
    expect(failed.run.error?.code).toBe('all_items_failed');
    expect(failed.firstFailedResult).toMatchObject({
      url: `${site.url}/c`,
      error: { code: 'extraction_failed' },
    });
    expect(failed.message).toContain(`(first: ${site.url}/c: extraction_failed`);
  });

  it('deep-crawls a site end to end, with status snapshots on the way', async () => {
    const events = await lastValueFrom(
      client.deepCrawl({ url: `${site.url}/`, max_depth: 2, use_sitemap: false }).pipe(toArray()),
    );
    const statuses = events.filter((e) => e.type === 'status');
    expect(statuses.at(-1)?.type === 'status' && statuses.at(-1)?.run.status).toBe('completed');
    const urls = events.flatMap((e) => (e.type === 'result' ? [e.result.url] : [])).sort();
    expect(urls).toEqual(['/', '/a', '/b', '/c', '/d'].map((p) => `${site.url}${p}`));
    const done = events.at(-1);
    expect(done?.type === 'completed' && done.results).toBe(5);
  });

  it('goes through a run with for await: created, snapshots, results, completed; a break cancels the run', async () => {
    const seen: string[] = [];
    for await (const event of eachEvent(client.crawl({ urls: [`${site.url}/a`, `${site.url}/b`] }))) {
      seen.push(event.type === 'result' ? `result ${event.result.url}` : event.type);
    }
    expect(seen[0]).toBe('created');
    expect(seen.filter((line) => line.startsWith('result')).sort()).toEqual([
      `result ${site.url}/a`,
      `result ${site.url}/b`,
    ]);
    expect(seen.at(-1)).toBe('completed');
    expect(seen.indexOf('completed')).toBeGreaterThan(seen.lastIndexOf('status'));

    const held = await startFixtureSite();
    try {
      let id = '';
      const run$ = client.crawl({ urls: [`${held.url}/hold/e`] }, { cancelOnUnsubscribe: true });
      for await (const event of eachEvent(run$)) {
        if (event.type === 'created') id = event.run.id;
        if (event.type === 'status' && event.run.status === 'running') break;
      }
      expect(id).not.toBe('');
      const run = await client.runs.wait(id, { deadlineMs: 10_000 });
      expect(run.status).toBe('cancelled');
    } finally {
      await held.close();
    }
  });

  it('cancels a running run, then retries it through the client', async () => {
    const held = await startFixtureSite();
    try {
      const events: RunEvent[] = [];
      const finished = new Promise<void>((resolve, reject) =>
        client.crawl({ urls: [`${held.url}/hold/1`, `${held.url}/hold/2`] }).subscribe({
          next: (event) => events.push(event),
          error: reject,
          complete: resolve,
        }),
      );
      // Cancel once the server is fetching a page (the fixture holds it open).
      await until(() => held.requests.some((path) => path.startsWith('/hold/')));
      const created = events[0];
      expect(created?.type).toBe('created');
      const id = created?.type === 'created' ? created.run.id : '';
      expect((await client.runs.cancel(id)).status).toBe('cancelled');
      await finished;
      const completed = events.at(-1);
      expect(completed?.type === 'completed' && completed.run.status).toBe('cancelled');
      expect(completed?.type === 'completed' && completed.results).toBe(0);
      await expect(client.runs.cancel(id)).rejects.toBeInstanceOf(ConflictError);

      held.release();
      const retried = await client.runs.retry(id);
      expect(retried.status).toBe('queued');
      const outcome = await collectRun(client.runs.follow(id));
      expect(outcome.run.status).toBe('completed');
      expect(outcome.results).toHaveLength(2);
    } finally {
      await held.close();
    }
  });

  it('reads paged results lazily', async () => {
    const urls = Array.from({ length: 12 }, (_, i) => `${site.url}/n/${i}`);
    const { run } = await collectRun(client.crawl({ urls }));
    const pageRequests = () =>
      sent.filter((s) => s.line.startsWith(`GET /api/v1/runs/${run.id}/results`)).length;
    const before = pageRequests();
    const firstSix: string[] = [];
    for await (const result of client.runs.results(run.id, { pageSize: 5 })) {
      firstSix.push(result.id);
      if (firstSix.length === 6) break;
    }
    expect(pageRequests() - before).toBe(2);
    const all = await lastValueFrom(client.runs.results(run.id, { pageSize: 5 }).pipe(toArray()));
    expect(all).toHaveLength(12);
    expect(all.slice(0, 6).map((r) => r.id)).toEqual(firstSix);
    expect(pageRequests() - before).toBe(5);
  });

  it('makes one request stream for two subscribers to one run', async () => {
    const held = await startFixtureSite();
    try {
      const run = await client.runs.start({ type: 'crawl', urls: [`${held.url}/hold/x`] });
      await until(() => held.requests.includes('/hold/x'));
      await new Promise((r) => setTimeout(r, 100));
      const mark = sent.length;
      const view = lastValueFrom(client.runs.watch(run.id).pipe(toArray()));
      const progress = lastValueFrom(client.runs.watch(run.id).pipe(toArray()));
      await new Promise((r) => setTimeout(r, 600));
      // One shared stream: a plain batched read, then one batched long poll held open by the server.
      const during = feedReads(mark);
      expect(during.map((s) => s.line.includes('wait='))).toEqual([false, true]);
      expect(during.every((s) => s.line.includes(`ids=${run.id}`))).toBe(true);
      expect(client.activeWatches).toBe(1);
      held.release();
      const [a, b] = await Promise.all([view, progress]);
      expect(a).toEqual(b);
      expect(a.at(-1)?.status).toBe('completed');
      expect(feedReads(mark).length).toBeLessThanOrEqual(a.length + 1);
      expect(runGets(run.id)).toEqual([]);
      expect(client.activeWatches).toBe(0);
    } finally {
      await held.close();
    }
  });

  it("watches many runs past one deleted meanwhile with deleted: 'skip'; by default the 404 ends them all", async () => {
    const held = await startFixtureSite();
    try {
      const gone = await client.runs.start({ type: 'crawl', urls: [`${held.url}/hold/gone`] });
      const kept = await client.runs.start({ type: 'crawl', urls: [`${held.url}/hold/kept`] });
      await until(() => held.requests.includes('/hold/gone') && held.requests.includes('/hold/kept'));
      const ids = [gone.id, kept.id];
      const strict = lastValueFrom(client.runs.watchMany(ids).pipe(toArray())).catch((e: unknown) => e);
      const skipping = lastValueFrom(client.runs.watchMany(ids, { deleted: 'skip' }).pipe(toArray()));
      await client.runs.delete(gone.id);
      expect(await strict).toBeInstanceOf(NotFoundError);
      held.release();
      const snapshots = await skipping;
      expect(snapshots.at(-1)).toMatchObject({ id: kept.id, status: 'completed' });
    } finally {
      held.release();
      await held.close();
    }
  });

  it('watches many runs with one batched request stream', async () => {
    const runs = await Promise.all(
      [0, 1, 2].map((i) => client.runs.start({ type: 'crawl', urls: [`${site.url}/n/batch-${i}`] })),
    );
    const snapshots = await lastValueFrom(client.runs.watchMany(runs.map((r) => r.id)).pipe(toArray()));
    expect(new Set(snapshots.filter((r) => r.status === 'completed').map((r) => r.id)).size).toBe(3);
    expect(client.capabilities.batch).toBe(true);
    expect(runs.every((r) => runGets(r.id).length === 0)).toBe(true);
  });
});
