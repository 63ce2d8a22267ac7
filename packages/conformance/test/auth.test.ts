import { ENDPOINTS, RunPage, RunPageLenient } from '@webdata/contract';
import { describe, expect, it } from 'vitest';
import { createRun, expectError, readAs } from '../src/checks.js';
import { apiClient } from '../src/http-client.js';
import { anyPageUrl, requireSecondKey } from '../src/paths.js';
import { conformanceTarget } from '../src/target.js';

const target = conformanceTarget();
const call = apiClient(target.baseUrl, target.apiKey);

/** A concrete path for an endpoint's template (ids that do not exist). */
const concrete = (path: string) =>
  path.replace('{runId}', 'run_conformanceabsent').replace('{resultId}', 'res_conformanceabsent');
const METHOD = { get: 'GET', post: 'POST', delete: 'DELETE' } as const;

describe('authentication', () => {
  it.each(ENDPOINTS.filter((endpoint) => endpoint.authenticated))(
    '[spec §5] a request without x-api-key answers 401: $method $path',
    async (endpoint) => {
      const response = await call(METHOD[endpoint.method], concrete(endpoint.path), {
        apiKey: null,
        ...(endpoint.method === 'post' ? { body: {} } : {}),
      });
      expectError(target, response, 401, 'unauthorized');
    },
  );

  it('[spec §5] an unknown or malformed x-api-key answers 401', async () => {
    for (const key of [
      'wd_key_00000000000000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'nope',
      'x'.repeat(500),
    ]) {
      expectError(target, await call('GET', '/api/v1/runs', { apiKey: key }), 401, 'unauthorized');
    }
    expectError(
      target,
      await call('POST', '/api/v1/search', { apiKey: '', body: { query: 'x' } }),
      401,
      'unauthorized',
    );
  });

  it('[spec §5] a request with a valid x-api-key is served', async () => {
    const response = await call('GET', '/api/v1/runs');
    expect(response.status).toBe(200);
    readAs(target, RunPageLenient, RunPage, response.body);
  });

  it("[api-v1 Conventions] another owner's run answers 404, never 403", async (context) => {
    const other = apiClient(target.baseUrl, requireSecondKey(target, context));
    const run = await createRun(other, '/api/v1/crawl', { urls: [anyPageUrl(target, '/slow')] });
    try {
      expectError(target, await call('GET', `/api/v1/runs/${run.id}`), 404, 'not_found');
      expectError(target, await call('POST', `/api/v1/runs/${run.id}/cancel`), 404, 'not_found');
      expectError(target, await call('POST', `/api/v1/runs/${run.id}/retry`), 404, 'not_found');
      expectError(target, await call('GET', `/api/v1/runs/${run.id}/results`), 404, 'not_found');
      expectError(target, await call('DELETE', `/api/v1/runs/${run.id}`), 404, 'not_found');
      const listed = RunPageLenient.parse((await call('GET', `/api/v1/runs?ids=${run.id}`)).body);
      expect(listed.data).toEqual([]);
      // The owner still sees it: the DELETE above did nothing.
      expect((await other('GET', `/api/v1/runs/${run.id}`)).status).toBe(200);
    } finally {
      await other('DELETE', `/api/v1/runs/${run.id}`);
    }
  });

  it('[api-v1 Errors] x-request-id is echoed on every response, success or error', async () => {
    const given = await call('GET', '/api/v1/runs?limit=1', {
      headers: { 'x-request-id': 'conformance-123' },
    });
    expect(given.headers['x-request-id']).toBe('conformance-123');
    const success = await call('GET', '/api/v1/collections');
    const unauthorized = await call('GET', '/api/v1/runs', { apiKey: null });
    const missing = await call('GET', '/api/v1/no-such-route');
    for (const response of [success, unauthorized, missing]) {
      expect(response.headers['x-request-id']).toEqual(expect.any(String));
    }
    expect(success.headers['x-request-id']).not.toBe(unauthorized.headers['x-request-id']);
  });
});
