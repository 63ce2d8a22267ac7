/**
 * Request schemas through the HTTP API: each request's `$id` and `$ref` are
 * its own (no registry shared between owners or requests), patterns that
 * need backtracking are refused naming the field, and the cheap checks (URLs)
 * come before any compiling. No workers run: nothing is fetched.
 */
import { ErrorBody } from '@webdata/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCall, apiClient } from './api-client.js';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
let other: ApiCall;

beforeAll(async () => {
  server = await startTestServer({ runWorkers: false, allowPrivateNetworks: false });
  other = apiClient(server.url, await server.createKey());
});

afterAll(async () => {
  await server?.close();
});

const URLS = ['https://example.invalid/page'];
const SHARED_ID = 'https://schemas.example/product';

describe('request schemas', () => {
  it('lets two owners use the same $id, and refuses a $ref to the other owner schema (400)', async () => {
    const product = { $id: SHARED_ID, type: 'object', properties: { name: { type: 'string' } } };
    expect((await server.call('POST', '/api/v1/extract', { urls: URLS, schema: product })).status).toBe(202);
    const second = await other('POST', '/api/v1/extract', {
      urls: URLS,
      schema: { ...product, properties: { title: { type: 'string' } } },
    });
    expect(second.status, JSON.stringify(second.body)).toBe(202);
    const reaching = await other('POST', '/api/v1/extract', {
      urls: URLS,
      schema: { type: 'object', properties: { stolen: { $ref: SHARED_ID } } },
    });
    expect(reaching.status).toBe(400);
    const body = ErrorBody.parse(reaching.body);
    expect(body.error.message).toMatch(/can't resolve reference/);
    expect(body.error.details?.[0]?.path[0]).toBe('schema');
  });

  it('refuses a pattern with a backreference or lookaround, naming where it is', async () => {
    for (const pattern of ['(a+)\\1', '^(?!x)', '(?<=a)b']) {
      const answer = await server.call('POST', '/api/v1/extract', {
        urls: URLS,
        schema: { type: 'object', properties: { code: { type: 'string', pattern } } },
      });
      expect(answer.status, pattern).toBe(400);
      const body = ErrorBody.parse(answer.body);
      expect(body.error.message).toMatch(/lookaround or a backreference/);
      expect(body.error.details?.[0]?.path).toEqual(['schema', 'properties', 'code', 'pattern']);
    }
  });

  it('accepts (a+)+$: it runs in linear time', async () => {
    const answer = await server.call('POST', '/api/v1/extract', {
      urls: URLS,
      schema: { type: 'object', properties: { title: { type: 'string', pattern: '(a+)+$' } } },
    });
    expect(answer.status).toBe(202);
  });

  it('checks the URLs before compiling the schema: a refused URL is answered 422 whatever the schema', async () => {
    const answer = await server.call('POST', '/api/v1/extract', {
      urls: ['http://127.0.0.1/'],
      schema: { type: 'object', properties: { a: { type: 'string', minLength: 'not a number' } } },
    });
    expect(answer.status).toBe(422);
    expect(ErrorBody.parse(answer.body).error.code).toBe('unprocessable_url');
  });
});
