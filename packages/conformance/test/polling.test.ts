import { Run, RunLenient } from '@webdata/contract';
import { describe, expect, it } from 'vitest';
import { createRun, expectError, pollRun, preview, readAs } from '../src/checks.js';
import { apiClient } from '../src/http-client.js';
import { requireFixture, requireOwnServer } from '../src/paths.js';
import { conformanceTarget } from '../src/target.js';

const target = conformanceTarget();
const call = apiClient(target.baseUrl, target.apiKey);

/** Waits until a run's slow page is being fetched, then reads the run (for its ETag). */
async function whenRunning(runId: string) {
  await pollRun(call, runId, (run) => run.status === 'running' || (run.stats?.running ?? 0) > 0, 10_000);
  return call('GET', `/api/v1/runs/${runId}`);
}

describe('polling help', () => {
  it('[api-v1 Polling] GET /runs/{runId} sends an ETag; If-None-Match answers 304 while nothing changed', async (context) => {
    const site = requireFixture(target, context);
    const run = await pollRun(call, (await createRun(call, '/api/v1/crawl', { urls: [`${site}/c`] })).id);
    const first = await call('GET', `/api/v1/runs/${run.id}`);
    const etag = first.headers.etag;
    expect(etag, 'ETag header').toEqual(expect.any(String));
    const unchanged = await call('GET', `/api/v1/runs/${run.id}`, {
      headers: { 'if-none-match': String(etag) },
    });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    const stale = await call('GET', `/api/v1/runs/${run.id}`, {
      headers: { 'if-none-match': '"conformance-stale"' },
    });
    expect(stale.status).toBe(200);
    readAs(target, RunLenient, Run, stale.body);
  });

  it('[api-v1 Polling] the ETag changes when the run changes', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/slow`] });
    try {
      const before = (await call('GET', `/api/v1/runs/${created.id}`)).headers.etag;
      await call('POST', `/api/v1/runs/${created.id}/cancel`);
      const after = await call('GET', `/api/v1/runs/${created.id}`, {
        headers: { 'if-none-match': String(before) },
      });
      expect(after.status).toBe(200);
      expect(after.headers.etag).not.toBe(before);
      expect(RunLenient.parse(after.body).status).toBe('cancelled');
    } finally {
      await call('DELETE', `/api/v1/runs/${created.id}`);
    }
  });

  it('[api-v1 Polling] ?wait long poll answers as soon as the run changes', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/slow`] });
    try {
      // Wait until the item is running, so the next change is the cancel below.
      const current = await whenRunning(created.id);
      const started = Date.now();
      const held = call('GET', `/api/v1/runs/${created.id}?wait=20`, {
        headers: { 'if-none-match': String(current.headers.etag) },
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await call('POST', `/api/v1/runs/${created.id}/cancel`);
      const answered = await held;
      expect(answered.status, preview(answered.body)).toBe(200);
      expect(RunLenient.parse(answered.body).status).toBe('cancelled');
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(400);
      expect(elapsed).toBeLessThan(10_000);
    } finally {
      await call('DELETE', `/api/v1/runs/${created.id}`);
    }
  });

  it('[api-v1 Polling] ?wait=N holds the answer about N seconds while nothing changes', async (context) => {
    const site = requireFixture(target, context);
    const created = await createRun(call, '/api/v1/crawl', { urls: [`${site}/slow`] });
    try {
      const current = await whenRunning(created.id);
      const started = Date.now();
      const held = await call('GET', `/api/v1/runs/${created.id}?wait=1`, {
        headers: { 'if-none-match': String(current.headers.etag) },
      });
      const elapsed = Date.now() - started;
      expect([200, 304]).toContain(held.status);
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(5_000);
    } finally {
      await call('DELETE', `/api/v1/runs/${created.id}`);
    }
  });

  it('[api-v1 Polling] ?wait on a terminal run answers at once', async (context) => {
    const site = requireFixture(target, context);
    const run = await pollRun(call, (await createRun(call, '/api/v1/crawl', { urls: [`${site}/c`] })).id);
    const started = Date.now();
    const response = await call('GET', `/api/v1/runs/${run.id}?wait=20`);
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('[api-v1 Polling] ?wait above 30 seconds answers 400', async (context) => {
    requireOwnServer(target, context, 'the ceiling of 30 s is refused, not clamped');
    expectError(
      target,
      await call('GET', '/api/v1/runs/run_conformanceabsent?wait=31'),
      400,
      'invalid_request',
    );
    expectError(
      target,
      await call('GET', '/api/v1/runs/run_conformanceabsent?wait=soon'),
      400,
      'invalid_request',
    );
  });
});
