import { IN_FLIGHT_STATUSES, Run, RunLenient, RunStatus, TERMINAL_STATUSES } from '@webdata/contract';
import { describe, expect, it } from 'vitest';
import { createRun, expectError, getRun, listResults, pollRun, preview, readAs } from '../src/checks.js';
import { apiClient } from '../src/http-client.js';
import { anyPageUrl, requireFixture, uniqueSuffix } from '../src/paths.js';
import { conformanceTarget } from '../src/target.js';

const target = conformanceTarget();
const call = apiClient(target.baseUrl, target.apiKey);
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const inFlight = (status: string) => (IN_FLIGHT_STATUSES as readonly string[]).includes(status);

describe('run creation', () => {
  it('[spec §4 POST /extract] returns a run object immediately with id, status, type, urls, created_at', async () => {
    const url = anyPageUrl(target, '/slow');
    const started = Date.now();
    const response = await call('POST', '/api/v1/extract', {
      body: {
        urls: [url],
        query: 'the page title',
        schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
      },
    });
    const elapsed = Date.now() - started;
    try {
      expect(response.status, preview(response.body)).toBe(202);
      const run = readAs(target, RunLenient, Run, response.body);
      expect(run.id).toEqual(expect.any(String));
      expect(run.status).toEqual(expect.any(String));
      expect(run.type).toBe('extract');
      expect(run.urls).toEqual([url]);
      expect(run.created_at).toEqual(expect.any(String));
      // "At once": the page behind it takes a minute, the answer did not wait for it.
      expect(elapsed).toBeLessThan(5_000);
      if (target.fixtureUrl) expect(inFlight(run.status), run.status).toBe(true);
    } finally {
      const id = (response.body as { id?: string }).id;
      if (id) await call('DELETE', `/api/v1/runs/${id}`);
    }
  });

  it.each([
    ['/api/v1/extract', 'extract', { query: 'the title' }],
    ['/api/v1/crawl', 'crawl', {}],
    ['/api/v1/runs', 'crawl', { type: 'crawl' }],
    ['/api/v1/runs', 'extract', { type: 'extract', query: 'the title' }],
  ] as const)(
    '[api-v1 Conventions] run creation answers 202 with Location: POST %s (type %s)',
    async (path, type, extra) => {
      const response = await call('POST', path, { body: { urls: [anyPageUrl(target)], ...extra } });
      expect(response.status, preview(response.body)).toBe(202);
      const run = readAs(target, RunLenient, Run, response.body);
      expect(run.type).toBe(type);
      expect(String(response.headers.location)).toMatch(new RegExp(`/api/v1/runs/${run.id}$`));
      await call('DELETE', `/api/v1/runs/${run.id}`);
    },
  );

  it('[api-v1 Conventions] deep crawl creation answers 202 with Location and type deep-crawl', async () => {
    const url = anyPageUrl(target, '/c');
    for (const [path, body] of [
      ['/api/v1/deep-crawl', { url, max_depth: 0, limit: 1 }],
      ['/api/v1/runs', { type: 'deep-crawl', url, max_depth: 0, limit: 1 }],
    ] as const) {
      const response = await call('POST', path, { body });
      expect(response.status, preview(response.body)).toBe(202);
      const run = readAs(target, RunLenient, Run, response.body);
      expect(run.type).toBe('deep-crawl');
      expect(run.urls).toEqual([url]);
      expect(String(response.headers.location)).toMatch(new RegExp(`/api/v1/runs/${run.id}$`));
      await call('DELETE', `/api/v1/runs/${run.id}`);
    }
  });

  it('[api-v1 Conventions] ids are URL-safe with a run_ prefix, timestamps RFC 3339 UTC', async () => {
    const run = await createRun(call, '/api/v1/crawl', { urls: [anyPageUrl(target)] });
    expect(run.id).toMatch(/^run_[A-Za-z0-9_-]+$/);
    expect(run.created_at).toMatch(RFC3339_UTC);
    const read = await getRun(call, run.id);
    if (read.updated_at !== undefined) expect(read.updated_at).toMatch(RFC3339_UTC);
    await call('DELETE', `/api/v1/runs/${run.id}`);
  });

  it('[api-v1 Conventions] the same Idempotency-Key returns the first run again', async () => {
    const body = { urls: [anyPageUrl(target)] };
    const key = `conformance-${uniqueSuffix()}`;
    const first = await createRun(call, '/api/v1/crawl', body, { 'idempotency-key': key });
    const again = await createRun(call, '/api/v1/crawl', body, { 'idempotency-key': key });
    const other = await createRun(call, '/api/v1/crawl', body, { 'idempotency-key': `${key}-other` });
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    await call('DELETE', `/api/v1/runs/${first.id}`);
    await call('DELETE', `/api/v1/runs/${other.id}`);
  });

  it('[spec §4 GET /runs/{runId}] inspect returns the run with its state and statistics', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/a`, `${site}/b`] });
    const done = await pollRun(call, created.id);
    const response = await call('GET', `/api/v1/runs/${created.id}`);
    const run = readAs(target, RunLenient, Run, response.body);
    expect(run).toMatchObject({
      id: created.id,
      type: 'crawl',
      urls: created.urls,
      created_at: created.created_at,
    });
    expect(run.status).toBe(done.status);
    expect(run.stats).toMatchObject({ total: 2, succeeded: 2, failed: 0 });
  });
});

describe('run lifecycle', () => {
  it('[spec §1] a crawl goes queued/running → completed, then its results are readable', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/a`, `${site}/b`] });
    expect(inFlight(created.status), created.status).toBe(true);
    const seen = new Set([created.status]);
    const run = await pollRun(call, created.id, (r) => {
      seen.add(r.status);
      return TERMINAL_STATUSES.includes(r.status as never);
    });
    expect(run.status).toBe('completed');
    for (const status of seen) expect(RunStatus.options).toContain(status);
    if (run.finished_at !== undefined) expect(run.finished_at).toMatch(RFC3339_UTC);
    const results = await listResults(call, run.id);
    expect(results.map((r) => r.title).sort()).toEqual(['Page A', 'Page B']);
    expect(results.every((r) => r.status === undefined || r.status === 'succeeded')).toBe(true);
  });

  it('[api-v1 States] some pages failing ends incomplete, the succeeded results stay readable', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/c`, `${site}/missing`] });
    const run = await pollRun(call, created.id);
    expect(run.status).toBe('incomplete');
    expect(run.stats).toMatchObject({ succeeded: 1, failed: 1 });
    const results = await listResults(call, run.id);
    expect(results).toHaveLength(2);
    const failed = results.find((r) => r.url?.endsWith('/missing'));
    expect(failed).toMatchObject({ status: 'failed', http_status: 404 });
    expect(failed?.error?.code).toEqual(expect.any(String));
    const succeeded = await listResults(call, run.id, 'status=succeeded');
    expect(succeeded.map((r) => r.url)).toEqual([`${site}/c`]);
  });

  it('[api-v1 States] nothing fetched ends failed, with error saying why', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/missing`] });
    const run = await pollRun(call, created.id);
    expect(run.status).toBe('failed');
    expect(run.error?.code).toEqual(expect.any(String));
    expect(run.error?.message).toEqual(expect.any(String));
  });

  it('[api-v1 States] cancel of an in-flight run answers the run, cancelled', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/slow`] });
    const response = await call('POST', `/api/v1/runs/${created.id}/cancel`);
    expect(response.status, preview(response.body)).toBe(200);
    expect(readAs(target, RunLenient, Run, response.body).status).toBe('cancelled');
    expect((await getRun(call, created.id)).status).toBe('cancelled');
  });

  it('[api-v1 States] cancel from a terminal state answers 409 conflict', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/c`] });
    const run = await pollRun(call, created.id);
    expect(run.status).toBe('completed');
    expectError(target, await call('POST', `/api/v1/runs/${run.id}/cancel`), 409, 'conflict');
    const cancelled = await createRun(call, '/api/v1/crawl', { urls: [`${site}/slow`] });
    await call('POST', `/api/v1/runs/${cancelled.id}/cancel`);
    expectError(target, await call('POST', `/api/v1/runs/${cancelled.id}/cancel`), 409, 'conflict');
  });

  it('[api-v1 States] retry from completed or in-flight answers 409 conflict', async (context) => {
    const site = requireFixture(target, context);
    const completed = await pollRun(
      call,
      (await createRun(call, '/api/v1/crawl', { urls: [`${site}/c`] })).id,
    );
    expectError(target, await call('POST', `/api/v1/runs/${completed.id}/retry`), 409, 'conflict');
    const slow = await createRun(call, '/api/v1/crawl', { urls: [`${site}/slow`] });
    try {
      expectError(target, await call('POST', `/api/v1/runs/${slow.id}/retry`), 409, 'conflict');
    } finally {
      await call('POST', `/api/v1/runs/${slow.id}/cancel`);
    }
  });

  it('[api-v1 States] retry of an incomplete run queues it again and re-runs only what did not succeed', async (context) => {
    const site = requireFixture(target, context);
    const flaky = `${site}/flaky/${uniqueSuffix()}`;
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/c`, flaky] });
    const first = await pollRun(call, created.id);
    expect(first.status).toBe('incomplete');
    const before = await listResults(call, created.id);
    const keptId = before.find((r) => r.url === `${site}/c`)?.id;
    const retried = await call('POST', `/api/v1/runs/${created.id}/retry`);
    expect(retried.status, preview(retried.body)).toBe(202);
    const queued = readAs(target, RunLenient, Run, retried.body);
    expect(inFlight(queued.status), queued.status).toBe(true);
    const second = await pollRun(call, created.id);
    expect(second.status).toBe('completed');
    const after = await listResults(call, created.id);
    expect(after).toHaveLength(2);
    expect(after.every((r) => r.status === 'succeeded')).toBe(true);
    // The page that had succeeded kept its result: it was not fetched again.
    expect(after.map((r) => r.id)).toContain(keptId);
  });

  it('[api-v1 States] retry of a cancelled run queues it again', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/slow`] });
    await call('POST', `/api/v1/runs/${created.id}/cancel`);
    const retried = await call('POST', `/api/v1/runs/${created.id}/retry`);
    expect(retried.status, preview(retried.body)).toBe(202);
    expect(inFlight(RunLenient.parse(retried.body).status)).toBe(true);
    await call('POST', `/api/v1/runs/${created.id}/cancel`);
  });

  it('[api-v1 States] delete answers 204, then the run and its results answer 404', async (context) => {
    const site = requireFixture(target, context);
    const run = await pollRun(call, (await createRun(call, '/api/v1/crawl', { urls: [`${site}/c`] })).id);
    const [result] = await listResults(call, run.id);
    expect((await call('DELETE', `/api/v1/runs/${run.id}`)).status).toBe(204);
    expectError(target, await call('GET', `/api/v1/runs/${run.id}`), 404, 'not_found');
    expectError(target, await call('GET', `/api/v1/runs/${run.id}/results`), 404, 'not_found');
    expectError(
      target,
      await call('GET', `/api/v1/runs/${run.id}/results/${result?.id}/content`),
      404,
      'not_found',
    );
    expectError(target, await call('DELETE', `/api/v1/runs/${run.id}`), 404, 'not_found');
  });

  it('[api-v1 States] deleting an active run cancels it first', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/slow`] });
    expect((await call('DELETE', `/api/v1/runs/${created.id}`)).status).toBe(204);
    expectError(target, await call('GET', `/api/v1/runs/${created.id}`), 404, 'not_found');
  });
});

describe('crawl and deep crawl', () => {
  it('[api-v1 Requests] a crawl from url follows same-site links breadth-first up to limit', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { url: `${site}/deep/`, limit: 3 });
    expect(created.urls).toEqual([`${site}/deep/`]);
    const run = await pollRun(call, created.id);
    expect(run.status).toBe('completed');
    const results = await listResults(call, run.id);
    // Breadth-first: the start page and both of its links. /deep/1/x is one link further (from /deep/1):
    // a crawler that goes deep first reaches it before /deep/2.
    expect(results.map((r) => new URL(r.url ?? '').pathname).sort()).toEqual([
      '/deep/',
      '/deep/1',
      '/deep/2',
    ]);
  });

  it('[api-v1 Requests] a deep crawl stops at max_depth', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/deep-crawl', {
      url: `${site}/deep/`,
      max_depth: 1,
      use_sitemap: false,
    });
    const run = await pollRun(call, created.id);
    expect(run.status).toBe('completed');
    const results = await listResults(call, run.id);
    expect(results.map((r) => new URL(r.url ?? '').pathname).sort()).toEqual([
      '/deep/',
      '/deep/1',
      '/deep/2',
    ]);
    expect(results.every((r) => r.depth === undefined || r.depth <= 1)).toBe(true);
    expect(run.stats?.total).toBe(3);
  });
});
