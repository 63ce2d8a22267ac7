import { ERROR_STATUS, ErrorBodyLenient, LIMITS } from '@webdata/contract';
import { describe, expect, it } from 'vitest';
import { createRun, expectError, preview } from '../src/checks.js';
import { type ApiResponse, apiClient } from '../src/http-client.js';
import { anyPageUrl } from '../src/paths.js';
import { conformanceTarget } from '../src/target.js';

const target = conformanceTarget();
const call = apiClient(target.baseUrl, target.apiKey);
const url = anyPageUrl(target);

describe('400 invalid_request', () => {
  it('[api-v1 Errors] 400 details list each issue with its path', async () => {
    const error = expectError(
      target,
      await call('POST', '/api/v1/extract', {
        body: { urls: ['ftp://files.example/a', '/relative'], query: 'x' },
      }),
      400,
      'invalid_request',
    );
    const paths = (error.details ?? []).map((detail) => JSON.stringify((detail as { path?: unknown }).path));
    expect(paths).toContain(JSON.stringify(['urls', 0]));
    expect(paths).toContain(JSON.stringify(['urls', 1]));
  });

  it('[api-v1 Requests] POST /extract requires urls and at least one of query and schema', async () => {
    expectError(
      target,
      await call('POST', '/api/v1/extract', { body: { query: 'the title' } }),
      400,
      'invalid_request',
    );
    expectError(
      target,
      await call('POST', '/api/v1/extract', { body: { urls: [url] } }),
      400,
      'invalid_request',
    );
    expectError(
      target,
      await call('POST', '/api/v1/extract', { body: { urls: [], query: 'the title' } }),
      400,
      'invalid_request',
    );
  });

  it('[spec §2 Extraction request body] a schema without type "object" is refused', async () => {
    expectError(
      target,
      await call('POST', '/api/v1/extract', {
        body: { urls: [url], schema: { type: 'string', properties: {} } },
      }),
      400,
      'invalid_request',
    );
  });

  it('[api-v1 Limits] more than 100 URLs in one request answers 400', async () => {
    const urls = Array.from({ length: LIMITS.maxUrlsPerRequest + 1 }, (_, i) => `https://a.example/${i}`);
    expectError(target, await call('POST', '/api/v1/crawl', { body: { urls } }), 400, 'invalid_request');
  });

  it('[api-v1 Requests] crawl takes urls or url, deep crawl requires url, POST /runs requires a known type', async () => {
    expectError(
      target,
      await call('POST', '/api/v1/crawl', { body: { formats: ['markdown'] } }),
      400,
      'invalid_request',
    );
    expectError(
      target,
      await call('POST', '/api/v1/deep-crawl', { body: { max_depth: 1 } }),
      400,
      'invalid_request',
    );
    expectError(
      target,
      await call('POST', '/api/v1/runs', { body: { type: 'scrape', urls: [url] } }),
      400,
      'invalid_request',
    );
    expectError(
      target,
      await call('POST', '/api/v1/crawl', { body: { urls: [url], formats: ['pdf'] } }),
      400,
      'invalid_request',
    );
  });

  it('[api-v1 Errors] a body that is not valid JSON answers 400', async () => {
    expectError(target, await call('POST', '/api/v1/crawl', { body: '{"urls": [' }), 400, 'invalid_request');
    expectError(target, await call('POST', '/api/v1/search', { body: '[1, 2' }), 400, 'invalid_request');
  });

  it('[api-v1 Lists] limit outside 1–200 and unknown filters answer 400', async () => {
    for (const query of ['limit=0', 'limit=201', 'limit=ten', 'status=paused', 'type=scrape']) {
      expectError(target, await call('GET', `/api/v1/runs?${query}`), 400, 'invalid_request');
    }
    expectError(target, await call('GET', '/api/v1/collections?limit=0'), 400, 'invalid_request');
  });
});

describe('404, 413, 415', () => {
  it('[api-v1 Errors] 404 not_found for an unknown run on every run endpoint', async () => {
    const id = 'run_conformancedoesnotexist';
    for (const [method, path] of [
      ['GET', `/api/v1/runs/${id}`],
      ['DELETE', `/api/v1/runs/${id}`],
      ['POST', `/api/v1/runs/${id}/cancel`],
      ['POST', `/api/v1/runs/${id}/retry`],
      ['GET', `/api/v1/runs/${id}/results`],
      ['GET', `/api/v1/runs/${id}/results/res_conformancenone/content`],
      ['GET', `/api/v1/runs/${id}/results/res_conformancenone/screenshot`],
    ] as const) {
      expectError(target, await call(method, path), 404, 'not_found');
    }
  });

  it('[api-v1 Errors] 404 not_found for an unknown result of an existing run', async () => {
    const run = await createRun(call, '/api/v1/crawl', { urls: [url] });
    try {
      for (const suffix of ['content', 'screenshot']) {
        expectError(
          target,
          await call('GET', `/api/v1/runs/${run.id}/results/res_conformancenone/${suffix}`),
          404,
          'not_found',
        );
      }
    } finally {
      await call('DELETE', `/api/v1/runs/${run.id}`);
    }
  });

  it('[api-v1 Errors] 404 not_found for an unknown route under /api/v1', async () => {
    expectError(target, await call('GET', '/api/v1/no-such-thing'), 404, 'not_found');
    expectError(target, await call('POST', '/api/v1/scrape', { body: { url } }), 404, 'not_found');
  });

  it('[api-v1 Limits] a body over 1 MiB answers 413 payload_too_large', async () => {
    const body = JSON.stringify({ urls: [url], query: 'x'.repeat(LIMITS.maxBodyBytes + 1024) });
    expectError(target, await call('POST', '/api/v1/extract', { body }), 413, 'payload_too_large');
  });

  it('[spec §4] a body that is not application/json answers 415 unsupported_media_type', async () => {
    for (const type of [
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=conformance',
      'application/xml',
      'text/plain',
    ]) {
      expectError(
        target,
        await call('POST', '/api/v1/crawl', {
          body: type === 'text/plain' ? JSON.stringify({ urls: [url] }) : `urls=${encodeURIComponent(url)}`,
          headers: { 'content-type': type },
        }),
        415,
        'unsupported_media_type',
      );
    }
  });
});

describe('the error body', () => {
  it('[api-v1 Errors] every error body has error.code, error.message, error.request_id and a code matching its status', async () => {
    const provoked: ApiResponse[] = [
      await call('GET', '/api/v1/runs', { apiKey: null }),
      await call('GET', '/api/v1/runs?limit=-1'),
      await call('GET', '/api/v1/runs/run_conformancenothere'),
      await call('POST', '/api/v1/crawl', { body: 'not json' }),
      await call('POST', '/api/v1/crawl', { body: 'a=b', headers: { 'content-type': 'text/plain' } }),
      await call('DELETE', '/api/v1/nowhere'),
    ];
    for (const response of provoked) {
      expect(response.status, preview(response.body)).toBeGreaterThanOrEqual(400);
      expect(String(response.headers['content-type'])).toMatch(/json/);
      const { error } = ErrorBodyLenient.parse(response.body);
      expect(error.message).toEqual(expect.any(String));
      expect(error.request_id).toEqual(expect.any(String));
      expect(ERROR_STATUS[error.code as keyof typeof ERROR_STATUS], error.code).toBe(response.status);
    }
  });
});
