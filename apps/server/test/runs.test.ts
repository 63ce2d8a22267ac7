import { ErrorBody, type Result, Run } from '@webdata/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCall, apiClient, waitForRun } from './api-client.js';
import { FixtureSite, page, slowRoute } from './fixture-site.js';
import { startTestServer, type TestServer } from './test-server.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

let site: FixtureSite;
let server: TestServer;
let call: ApiCall;
let flaky = 0;

beforeAll(async () => {
  site = new FixtureSite({
    '/': {
      body: page('Home', ['/a', '/b', '/private/x', '/redirect', '/a#section', 'https://elsewhere.example/']),
    },
    '/a': { body: page('Page A', ['/', '/b']) },
    '/b': { body: page('Page B', ['/a', '/c']) },
    '/c': { body: page('Page C') },
    '/private/x': { body: page('Private') },
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' },
    '/redirect': { status: 301, headers: { location: '/c' }, body: '' },
    '/missing': { status: 404, body: 'gone' },
    '/slow': slowRoute(20_000),
    '/image.png': { type: 'image/png', body: PNG },
    '/notes.txt': { type: 'text/plain', body: 'plain text notes' },
    '/data.json': { type: 'application/json', body: '{"a":1}' },
    '/huge': { body: `<html><body>${'x'.repeat(300_000)}</body></html>` },
    '/flaky': (_req, res) => {
      flaky += 1;
      if (flaky === 1) res.writeHead(500).end('boom');
      else res.writeHead(200, { 'content-type': 'text/html' }).end(page('Flaky page'));
    },
  });
  await site.start();
  server = await startTestServer({ maxDownloadBytes: 100_000, pageTimeoutMs: 15_000 });
  call = server.call;
});

afterAll(async () => {
  await server?.close();
  await site?.stop();
});

async function results(runId: string): Promise<Result[]> {
  const { body } = await call('GET', `/api/v1/runs/${runId}/results?limit=200`);
  return body.data;
}

describe('run lifecycle', () => {
  it('creates a crawl (202, Location), runs it through queued/running to completed, and serves results', async () => {
    const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/a`, `${site.url}/b`] });
    expect(created.status).toBe(202);
    expect(Run.parse(created.body).status).toBe('queued');
    expect(created.headers.location).toBe(`/api/v1/runs/${created.body.id}`);
    const seen = new Set<string>([created.body.status]);
    let run = created.body;
    while (!['completed', 'incomplete', 'failed', 'cancelled'].includes(run.status)) {
      run = (await call('GET', `/api/v1/runs/${run.id}?wait=2`)).body;
      seen.add(run.status);
    }
    expect(run.status).toBe('completed');
    expect(run.stats).toEqual({ total: 2, queued: 0, running: 0, succeeded: 2, failed: 0, cancelled: 0 });
    expect(run.started_at).not.toBeNull();
    expect(run.finished_at).not.toBeNull();
    const list = await results(run.id);
    expect(list.map((r) => r.title).sort()).toEqual(['Page A', 'Page B']);
    expect(list.every((r) => r.status === 'succeeded' && r.http_status === 200)).toBe(true);
  });

  it('serves content in every format, as JSON or raw by Accept', async () => {
    const created = await call('POST', '/api/v1/crawl', {
      urls: [`${site.url}/a`],
      formats: ['markdown', 'links', 'text', 'html'],
    });
    await waitForRun(call, created.body.id);
    const [result] = await results(created.body.id);
    const base = `/api/v1/runs/${created.body.id}/results/${result!.id}/content`;
    const markdown = await call('GET', base);
    expect(markdown.body.format).toBe('markdown');
    expect(markdown.body.content).toContain('# Page A');
    const links = await call('GET', `${base}?format=links`);
    expect(links.body.content).toEqual([`${site.url}/`, `${site.url}/b`]);
    const text = await call('GET', `${base}?format=text`);
    expect(text.body.content).toContain('This page is about Page A');
    const raw = await call('GET', base, undefined, { accept: 'text/markdown' });
    expect(raw.headers['content-type']).toMatch(/^text\/markdown/);
    expect(raw.body).toContain('# Page A');
    const html = await call('GET', `${base}?format=html`, undefined, { accept: 'text/html' });
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect((await call('GET', `${base}?format=json`)).status).toBe(404);
    // Only the formats a run asks for are stored.
    const plain = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/b`] });
    await waitForRun(call, plain.body.id);
    const [other] = await results(plain.body.id);
    const missing = await call(
      'GET',
      `/api/v1/runs/${plain.body.id}/results/${other!.id}/content?format=html`,
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toMatch(/asked for markdown/);
    // Accept is negotiated by preference: a browser's header (text/html first, */* after) on a crawl
    // without HTML gets the JSON answer it also accepts (it was a 404), and q-values count.
    const otherBase = `/api/v1/runs/${plain.body.id}/results/${other!.id}/content`;
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const fallback = await call('GET', otherBase, undefined, { accept: browser });
    expect(fallback.status, JSON.stringify(fallback.body)).toBe(200);
    expect(fallback.body).toMatchObject({ format: 'markdown', content: expect.stringContaining('# Page B') });
    // Raw or JSON by Accept: a shared cache is told so.
    expect(fallback.headers.vary).toMatch(/\bAccept\b/i);
    const plainThenMarkdown = await call('GET', otherBase, undefined, {
      accept: 'text/plain, text/markdown;q=0.5',
    });
    expect(plainThenMarkdown.headers['content-type']).toMatch(/^text\/markdown/);
    expect(plainThenMarkdown.headers.vary).toMatch(/\bAccept\b/i);
    const jsonPreferred = await call('GET', base, undefined, {
      accept: 'text/markdown;q=0.2, application/json',
    });
    expect(jsonPreferred.body.format).toBe('markdown');
    const markdownPreferred = await call('GET', base, undefined, {
      accept: 'application/json;q=0.5, text/markdown',
    });
    expect(markdownPreferred.headers['content-type']).toMatch(/^text\/markdown/);
    const jsonRefused = await call('GET', `${base}?format=text`, undefined, {
      accept: 'application/json;q=0, text/plain',
    });
    expect(jsonRefused.headers['content-type']).toMatch(/^text\/plain/);
    // Only formats it does not hold, and nothing else acceptable: still the 404 that names them.
    const none = await call('GET', otherBase, undefined, { accept: 'text/html, text/plain' });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toMatch(/has no html content; the run asked for markdown/);
  });

  it("carries each result's content in the results list with include=content", async () => {
    const created = await call('POST', '/api/v1/crawl', {
      urls: [`${site.url}/a`, `${site.url}/b`, `${site.url}/missing`],
      formats: ['markdown', 'text'],
    });
    await waitForRun(call, created.body.id);
    const base = `/api/v1/runs/${created.body.id}/results?limit=200`;
    const byUrl = (page: { data: Result[] }) => new Map(page.data.map((r) => [r.url, r]));
    const text = byUrl((await call('GET', `${base}&include=content&format=text`)).body);
    expect(text.get(`${site.url}/a`)?.content).toContain('This page is about Page A');
    expect(text.get(`${site.url}/b`)?.content).toContain('This page is about Page B');
    expect(text.get(`${site.url}/missing`)?.status).toBe('failed');
    expect(text.get(`${site.url}/missing`)?.content).toBeNull();
    // Without a format: the run's first one; a format the run did not store: null, not an error.
    const markdown = byUrl((await call('GET', `${base}&include=content`)).body);
    expect(markdown.get(`${site.url}/a`)?.content).toContain('# Page A');
    const html = byUrl((await call('GET', `${base}&include=content&format=html`)).body);
    expect(html.get(`${site.url}/a`)?.content).toBeNull();
    // Without include, no content field at all.
    const plain = (await call('GET', base)).body.data as Result[];
    expect(plain.every((r) => !('content' in r))).toBe(true);
    expect((await call('GET', `${base}&include=everything`)).status).toBe(400);
    // A format without include=content is refused, not ignored (it answered the results without content).
    const alone = await call('GET', `${base}&format=markdown`);
    expect(alone.status).toBe(400);
    expect(alone.body.error.message).toBe(
      'invalid query: query.format: format picks the format of included content: send include=content with it',
    );
    expect(alone.body.error.details).toEqual([
      {
        path: ['format'],
        code: 'format_without_include',
        message: 'format picks the format of included content: send include=content with it',
      },
    ]);
  });

  it("refuses a results cursor of another run's list (it read that run from the same position)", async () => {
    const runIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/a`, `${site.url}/b`] });
      runIds.push((await waitForRun(call, created.body.id)).id);
    }
    const [first, second] = runIds as [string, string];
    const page = await call('GET', `/api/v1/runs/${first}/results?limit=1`);
    const cursor = page.body.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const next = await call('GET', `/api/v1/runs/${first}/results?limit=1&cursor=${cursor}`);
    expect(next.status).toBe(200);
    expect(next.body.data).toHaveLength(1);
    expect(next.body.data[0].id).not.toBe(page.body.data[0].id);
    const foreign = await call('GET', `/api/v1/runs/${second}/results?limit=1&cursor=${cursor}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({
      code: 'invalid_request',
      message: 'cursor is not valid for this list',
      details: [{ path: ['cursor'], code: 'invalid_cursor' }],
    });
  });

  it('ends incomplete when some pages fail, and retry re-runs only those', async () => {
    flaky = 0;
    const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/c`, `${site.url}/flaky`] });
    const run = await waitForRun(call, created.body.id);
    expect(run.status).toBe('incomplete');
    expect(run.stats).toMatchObject({ succeeded: 1, failed: 1 });
    const failed = (await results(run.id)).find((r) => r.status === 'failed')!;
    expect(failed.error).toMatchObject({ code: 'http_error' });
    expect(failed.http_status).toBe(500);
    const before = site.count('/c');
    const retried = await call('POST', `/api/v1/runs/${run.id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body.status).toBe('queued');
    const after = await waitForRun(call, run.id);
    expect(after.status).toBe('completed');
    expect(site.count('/c')).toBe(before);
    const list = await results(run.id);
    expect(list).toHaveLength(2);
    expect(list.every((r) => r.status === 'succeeded')).toBe(true);
  });

  it('fails a run when nothing could be fetched, with a run-level error', async () => {
    const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/missing`] });
    const run = await waitForRun(call, created.body.id);
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('all_items_failed');
    const [result] = await results(run.id);
    expect(result).toMatchObject({ status: 'failed', http_status: 404, error: { code: 'http_error' } });
  });

  it('cancels during a slow fetch, aborting it; cancel again is a 409', async () => {
    const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/slow`] });
    const runId = created.body.id;
    for (let i = 0; i < 100 && !site.requests.includes('/slow'); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(site.requests).toContain('/slow');
    const cancelled = await call('POST', `/api/v1/runs/${runId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    for (let i = 0; i < 100 && !site.aborted.includes('/slow'); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(site.aborted).toContain('/slow');
    const again = await call('POST', `/api/v1/runs/${runId}/cancel`);
    expect(again.status).toBe(409);
    expect(ErrorBody.parse(again.body).error.code).toBe('conflict');
    expect((await call('GET', `/api/v1/runs/${runId}`)).body.stats.cancelled).toBe(1);
  });

  it('refuses to retry a completed run (409) and deletes a run with its results (then 404)', async () => {
    const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/c`] });
    const run = await waitForRun(call, created.body.id);
    expect((await call('POST', `/api/v1/runs/${run.id}/retry`)).status).toBe(409);
    const [result] = await results(run.id);
    expect((await call('DELETE', `/api/v1/runs/${run.id}`)).status).toBe(204);
    expect((await call('GET', `/api/v1/runs/${run.id}`)).status).toBe(404);
    expect((await call('GET', `/api/v1/runs/${run.id}/results`)).status).toBe(404);
    expect((await call('GET', `/api/v1/runs/${run.id}/results/${result!.id}/content`)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/runs/${run.id}`)).status).toBe(404);
  });

  it('deletes an active run, cancelling it first', async () => {
    const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/slow`] });
    expect((await call('DELETE', `/api/v1/runs/${created.body.id}`)).status).toBe(204);
    expect((await call('GET', `/api/v1/runs/${created.body.id}`)).status).toBe(404);
  });

  it('returns the first run again for a repeated Idempotency-Key', async () => {
    const body = { urls: [`${site.url}/c`] };
    const first = await call('POST', '/api/v1/crawl', body, { 'idempotency-key': 'key-1' });
    const second = await call('POST', '/api/v1/crawl', body, { 'idempotency-key': 'key-1' });
    const third = await call('POST', '/api/v1/crawl', body, { 'idempotency-key': 'key-2' });
    expect(second.status).toBe(202);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(third.body.id).not.toBe(first.body.id);
    // Another owner's identical key is a different run.
    const other = apiClient(server.url, await server.createKey());
    const otherRun = (await other('POST', '/api/v1/crawl', body, { 'idempotency-key': 'key-1' })).body.id;
    expect(otherRun).not.toBe(first.body.id);
    // Their pages are fetched before the next test counts its own fetches.
    for (const id of [first.body.id, third.body.id]) await waitForRun(call, id);
    await waitForRun(other, otherRun);
  });

  it('refuses an Idempotency-Key sent again with another request, and replays it for the same one written otherwise', async () => {
    const body = { urls: [`${site.url}/a`], formats: ['markdown', 'links'] };
    const first = await call('POST', '/api/v1/crawl', body, { 'idempotency-key': 'reused-key' });
    expect(first.status).toBe(202);
    // The same request, its fields in another order, a default spelled out, through POST /runs.
    const same = await call(
      'POST',
      '/api/v1/runs',
      { formats: ['markdown', 'links'], collection: 'default', type: 'crawl', urls: [`${site.url}/a`] },
      { 'idempotency-key': 'reused-key' },
    );
    expect(same.status).toBe(202);
    expect(same.body.id).toBe(first.body.id);
    const others = [
      ['/api/v1/crawl', { urls: [`${site.url}/b`] }],
      ['/api/v1/crawl', { ...body, formats: ['html'] }],
      ['/api/v1/extract', { urls: [`${site.url}/a`], query: 'the title' }],
      ['/api/v1/deep-crawl', { url: `${site.url}/a` }],
    ] as const;
    for (const [path, other] of others) {
      const reused = await call('POST', path, other, { 'idempotency-key': 'reused-key' });
      expect(reused.status, path).toBe(400);
      const { error } = ErrorBody.parse(reused.body);
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain(first.body.id);
      expect(error.details).toEqual([
        { path: ['Idempotency-Key'], code: 'idempotency_key_reused', message: error.message },
      ]);
    }
    // Its page (/a) is fetched before the next test counts its own fetches of /a: on a loaded
    // machine it came after, and the crawl below saw /a fetched twice.
    await waitForRun(call, first.body.id);
  });
});

describe('crawling from a start URL', () => {
  it('follows same-site links breadth-first, honours robots.txt and fetches each page once', async () => {
    const before = site.requests.length;
    const created = await call('POST', '/api/v1/crawl', { url: `${site.url}/`, limit: 10 });
    const run = await waitForRun(call, created.body.id);
    expect(run.status).toBe('completed');
    const list = await results(run.id);
    const urls = list.map((r) => new URL(r.url).pathname);
    // /c is reached through /redirect; a direct link to it is only followed if found before the redirect resolved.
    const direct = list.find((r) => r.url.endsWith('/c'));
    expect(urls.sort()).toEqual(['/', '/a', '/b', ...(direct ? ['/c'] : []), '/redirect'].sort());
    expect(urls).not.toContain('/private/x');
    const fetched = site.requests.slice(before);
    // Each page linked only once in the site was asked for exactly once during this run. (/c is left out:
    // a direct link to it found while the redirect was being followed may be fetched once more.)
    for (const path of ['/', '/a', '/b', '/redirect']) {
      expect(
        fetched.filter((p) => p === path),
        path,
      ).toHaveLength(1);
    }
    expect(fetched).toContain('/c');
    const redirect = list.find((r) => r.url.endsWith('/redirect'))!;
    expect(redirect.final_url).toBe(`${site.url}/c`);
    for (const path of ['/a', '/b', '/redirect']) {
      expect(list.find((r) => r.url === `${site.url}${path}`)).toMatchObject({
        depth: 1,
        parent_url: `${site.url}/`,
      });
    }
    expect(direct ?? { depth: 2, parent_url: `${site.url}/b` }).toMatchObject({
      depth: 2,
      parent_url: `${site.url}/b`,
    });
  });

  it('stops at the limit and applies include/exclude globs', async () => {
    const limited = await waitForRun(
      call,
      (await call('POST', '/api/v1/crawl', { url: `${site.url}/`, limit: 2 })).body.id,
    );
    expect(limited.stats.total).toBe(2);
    const globbed = await call('POST', '/api/v1/crawl', {
      url: `${site.url}/`,
      exclude_paths: ['/b', '/redirect'],
    });
    const run = await waitForRun(call, globbed.body.id);
    const urls = (await results(run.id)).map((r) => new URL(r.url).pathname).sort();
    expect(urls).toEqual(['/', '/a']);
  });
});

describe('page handling', () => {
  it('keeps text and JSON, refuses binary and oversized pages with a clear per-result error', async () => {
    const created = await call('POST', '/api/v1/crawl', {
      urls: [`${site.url}/notes.txt`, `${site.url}/data.json`, `${site.url}/image.png`, `${site.url}/huge`],
    });
    const run = await waitForRun(call, created.body.id);
    expect(run.status).toBe('incomplete');
    const byPath = Object.fromEntries((await results(run.id)).map((r) => [new URL(r.url).pathname, r]));
    expect(byPath['/notes.txt']).toMatchObject({ status: 'succeeded', content_type: 'text/plain' });
    expect(byPath['/data.json']).toMatchObject({ status: 'succeeded', content_type: 'application/json' });
    expect(byPath['/image.png']).toMatchObject({ status: 'failed', error: { code: 'unsupported_content' } });
    expect(byPath['/huge']).toMatchObject({ status: 'failed', error: { code: 'too_large' } });
  });

  it('records robots.txt refusals of known URLs as failed results', async () => {
    const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/private/x`] });
    const run = await waitForRun(call, created.body.id);
    const [result] = await results(run.id);
    expect(result!.error?.code).toBe('robots_disallowed');
    expect(site.count('/private/x')).toBe(0);
    const ignoring = await call('POST', '/api/v1/crawl', {
      urls: [`${site.url}/private/x`],
      respect_robots: false,
    });
    expect((await waitForRun(call, ignoring.body.id)).status).toBe('completed');
  });
});

describe('polling support', () => {
  it('answers 304 to a matching If-None-Match and holds ?wait until the run changes', async () => {
    const created = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/c`] });
    const run = await waitForRun(call, created.body.id);
    const first = await call('GET', `/api/v1/runs/${run.id}`);
    expect(first.headers.etag).toMatch(/^"v\d+"$/);
    const again = await call('GET', `/api/v1/runs/${run.id}`, undefined, {
      'if-none-match': first.headers.etag as string,
    });
    expect(again.status).toBe(304);
    // Compared as RFC 9110 says: weakly (a compressing proxy hands the ETag on as W/"…"), in a list, or *.
    const etag = first.headers.etag as string;
    for (const ifNoneMatch of [`W/${etag}`, `"v0", ${etag}`, `"x",W/${etag}`, '*']) {
      const matched = await call('GET', `/api/v1/runs/${run.id}`, undefined, {
        'if-none-match': ifNoneMatch,
      });
      expect(matched.status, ifNoneMatch).toBe(304);
    }
    for (const ifNoneMatch of ['"v0"', 'W/"v0"', etag.slice(1, -1)]) {
      const changed = await call('GET', `/api/v1/runs/${run.id}`, undefined, {
        'if-none-match': ifNoneMatch,
      });
      expect(changed.status, ifNoneMatch).toBe(200);
    }

    const slow = await call('POST', '/api/v1/crawl', { urls: [`${site.url}/slow`] });
    // Held from `running`, so the next change can only be the cancel (a claim could come first otherwise).
    let current = await call('GET', `/api/v1/runs/${slow.body.id}`);
    while (current.body.status !== 'running') {
      current = await call('GET', `/api/v1/runs/${slow.body.id}?wait=5`, undefined, {
        'if-none-match': current.headers.etag as string,
      });
    }
    const started = Date.now();
    // Held with the ETag made weak, as a compressing proxy hands it on: it answered at once.
    const held = call('GET', `/api/v1/runs/${slow.body.id}?wait=20`, undefined, {
      'if-none-match': `W/${current.headers.etag as string}`,
    });
    await new Promise((r) => setTimeout(r, 300));
    await call('POST', `/api/v1/runs/${slow.body.id}/cancel`);
    const answered = await held;
    expect(answered.status).toBe(200);
    expect(answered.body.status).toBe('cancelled');
    expect(answered.headers['x-webdata-wait']).toBe('20');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('answers a batched long poll with the listed runs that changed since the list ETag', async () => {
    const slow = await Promise.all(
      [1, 2, 3].map(
        async () => (await call('POST', '/api/v1/crawl', { urls: [`${site.url}/slow`] })).body.id,
      ),
    );
    const ids = slow.join(',');
    // From `running` on, the next change of each can only be its cancel (a claim could come first otherwise).
    let listed = await call('GET', `/api/v1/runs?ids=${ids}`);
    while (!listed.body.data.every((run: { status: string }) => run.status === 'running')) {
      await new Promise((r) => setTimeout(r, 20));
      listed = await call('GET', `/api/v1/runs?ids=${ids}`);
    }
    // The ETag is the change position read before the list: read once more, after every claim committed.
    listed = await call('GET', `/api/v1/runs?ids=${ids}`);
    expect(listed.body.data).toHaveLength(3);
    let etag = listed.headers.etag as string;
    expect(etag).toMatch(/^"c\d+"$/);
    // A change position, not a validator: no HTTP cache may store the list and revalidate it with it.
    expect(listed.headers['cache-control']).toBe('no-store');
    expect((await call('GET', '/api/v1/runs?status=running')).headers['cache-control']).toBe('no-store');
    // Nothing moved past the ETag: 304 at once, then after a held wait.
    const idle = await call('GET', `/api/v1/runs?ids=${ids}`, undefined, { 'if-none-match': etag });
    expect(idle.status).toBe(304);
    let started = Date.now();
    const timedOut = await call('GET', `/api/v1/runs?ids=${ids}&wait=1`, undefined, {
      'if-none-match': etag,
    });
    expect(timedOut.status).toBe(304);
    expect(timedOut.headers['x-webdata-wait']).toBe('1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    // A held poll answers when one of them changes, with that one only.
    started = Date.now();
    const held = call('GET', `/api/v1/runs?ids=${ids}&wait=20`, undefined, { 'if-none-match': etag });
    await new Promise((r) => setTimeout(r, 300));
    await call('POST', `/api/v1/runs/${slow[1]}/cancel`);
    const answered = await held;
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(answered.status).toBe(200);
    expect(answered.body.data.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
      [slow[1], 'cancelled'],
    ]);
    Run.parse(answered.body.data[0]);
    expect(answered.body.next_cursor).toBeNull();
    expect(answered.headers.etag).not.toBe(etag);
    expect(answered.headers['cache-control']).toBe('no-store');
    etag = answered.headers.etag as string;
    // Changes made while no poll was held are not lost: the next poll answers them at once.
    await call('POST', `/api/v1/runs/${slow[0]}/cancel`);
    await call('POST', `/api/v1/runs/${slow[2]}/cancel`);
    const caughtUp = await call('GET', `/api/v1/runs?ids=${ids}&wait=20`, undefined, {
      'if-none-match': etag,
    });
    expect(caughtUp.body.data.map((r: { id: string }) => r.id)).toEqual([slow[0], slow[2]]);
    // A deleted run is named in x-webdata-missing, and answers a held poll at once.
    await call('DELETE', `/api/v1/runs/${slow[0]}`);
    const gone = await call('GET', `/api/v1/runs?ids=${ids}&wait=20`, undefined, {
      'if-none-match': caughtUp.headers.etag as string,
    });
    expect(gone.status).toBe(200);
    expect(gone.headers['x-webdata-missing']).toBe(slow[0]);
    expect(gone.body.data).toEqual([]);
    // An ETag of another database (past every change here) reads the listed runs afresh, not 304 for good.
    const future = `"c${Number((gone.headers.etag as string).slice(2, -1)) + 1_000_000}"`;
    const resync = await call('GET', `/api/v1/runs?ids=${ids}&wait=1`, undefined, {
      'if-none-match': future,
    });
    expect(resync.status).toBe(200);
    expect(resync.body.data.map((r: { id: string }) => r.id).sort()).toEqual([slow[1], slow[2]].sort());
    expect(resync.headers['x-webdata-missing']).toBe(slow[0]);
    expect(resync.headers.etag).toBe(gone.headers.etag);
  });

  it("answers a long poll over all of the key's runs without ids, and refuses filters that do not apply", async () => {
    const other = await server.createKey();
    const otherCall = apiClient(server.url, other);
    const mine = (await call('POST', '/api/v1/crawl', { urls: [`${site.url}/slow`] })).body.id as string;
    const theirs = (await otherCall('POST', '/api/v1/crawl', { urls: [`${site.url}/slow`] })).body
      .id as string;
    const listed = await call('GET', '/api/v1/runs?limit=1');
    const held = call('GET', '/api/v1/runs?wait=20', undefined, {
      'if-none-match': listed.headers.etag as string,
    });
    await new Promise((r) => setTimeout(r, 300));
    // Another key's change does not answer it; this key's does.
    await otherCall('POST', `/api/v1/runs/${theirs}/cancel`);
    await new Promise((r) => setTimeout(r, 300));
    await call('POST', `/api/v1/runs/${mine}/cancel`);
    const answered = await held;
    expect(answered.body.data.map((r: { id: string }) => r.id)).toEqual([mine]);
    // Without an ETag, a held poll waits for the next change from when it arrived.
    const fresh = call('GET', `/api/v1/runs?ids=${mine}&wait=1`);
    expect((await fresh).body.data).toEqual([]);
    // A deletion answers a held key-wide poll at once, naming the run (there are no ids to check).
    // The cancelled run's page may still be settling in a worker (its fetch is slow), so a held
    // poll may first answer with that late change to the run; the deletion follows it.
    let position = (await call('GET', '/api/v1/runs?limit=1')).headers.etag as string;
    let heldForDeletion = call('GET', '/api/v1/runs?wait=20', undefined, { 'if-none-match': position });
    await new Promise((r) => setTimeout(r, 300));
    const deletedAt = Date.now();
    await call('DELETE', `/api/v1/runs/${mine}`);
    let deletion = await heldForDeletion;
    for (let late = 0; late < 3 && !deletion.headers['x-webdata-missing']; late++) {
      expect(deletion.body.data.map((r: { id: string }) => r.id)).toEqual([mine]);
      position = deletion.headers.etag as string;
      heldForDeletion = call('GET', '/api/v1/runs?wait=20', undefined, { 'if-none-match': position });
      deletion = await heldForDeletion;
    }
    expect(Date.now() - deletedAt).toBeLessThan(15_000);
    expect(deletion.status).toBe(200);
    expect(deletion.headers['x-webdata-missing']).toBe(mine);
    expect(deletion.body.data).toEqual([]);
    const refused = await call('GET', '/api/v1/runs?wait=5&status=running');
    expect(refused.status).toBe(400);
    ErrorBody.parse(refused.body);
  });

  it('reads many runs by ids, filters by status and type, and pages with a cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await call('POST', '/api/v1/crawl', { urls: [`${site.url}/c`] })).body.id);
    const many = await call('GET', `/api/v1/runs?ids=${ids.join(',')}`);
    expect(many.body.data.map((r: { id: string }) => r.id).sort()).toEqual([...ids].sort());
    const firstPage = await call('GET', '/api/v1/runs?limit=2');
    expect(firstPage.body.data).toHaveLength(2);
    expect(firstPage.body.next_cursor).toEqual(expect.any(String));
    const secondPage = await call('GET', `/api/v1/runs?limit=2&cursor=${firstPage.body.next_cursor}`);
    expect(secondPage.body.data[0].id).not.toBe(firstPage.body.data[0].id);
    expect(Date.parse(secondPage.body.data[0].created_at)).toBeLessThanOrEqual(
      Date.parse(firstPage.body.data[1].created_at),
    );
    const failed = await call('GET', '/api/v1/runs?status=failed&type=crawl');
    expect(failed.body.data.every((r: { status: string }) => r.status === 'failed')).toBe(true);
    expect((await call('GET', '/api/v1/runs?cursor=bogus')).status).toBe(400);
  });
});
