import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { ErrorBody } from '@webdata/contract';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';
import { type ApiCall, apiClient } from './api-client.js';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
let call: ApiCall;

beforeAll(async () => {
  server = await startTestServer({
    // The SSRF guard stays on here (the server's default, which the test helper turns off): only literal
    // loopback URLs are used, so nothing is fetched.
    allowPrivateNetworks: false,
    // No workers: these runs are never fetched, so no name is ever resolved.
    runWorkers: false,
  });
  call = server.call;
});

afterAll(async () => {
  await server?.close();
});

function expectError(
  response: { status: number; body: unknown; headers: Record<string, unknown> },
  status: number,
  code: string,
) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const body = ErrorBody.parse(response.body);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(response.headers['x-request-id']);
  return body.error;
}

describe('authentication', () => {
  it('answers 401 without a key, with an unknown key and with a revoked key', async () => {
    expectError(await apiClient(server.url, '')('GET', '/api/v1/runs'), 401, 'unauthorized');
    expectError(await apiClient(server.url, 'wd_key_nope_x')('GET', '/api/v1/runs'), 401, 'unauthorized');
    const key = await server.createKey();
    const keyed = apiClient(server.url, key);
    expect((await keyed('GET', '/api/v1/runs')).status).toBe(200);
    await server.server.store.revokeApiKey(key.split('_').slice(1, 3).join('_'));
    // Key records are cached for a second (see ApiKeyCache): a revocation takes effect within it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expectError(await keyed('GET', '/api/v1/runs'), 401, 'unauthorized');
  });

  it('says what to change when the key is sent as Authorization, twice, or empty', async () => {
    const send = async (headers: string[]) => {
      const response = await request(`${server.url}/api/v1/runs`, { headers });
      const body = ErrorBody.parse(await response.body.json());
      expect(response.statusCode).toBe(401);
      expect(body.error.code).toBe('unauthorized');
      return body.error.message;
    };
    // Firecrawl's and Apify's clients send the key as a bearer token.
    expect(await send(['authorization', `Bearer ${server.apiKey}`])).toBe(
      'the x-api-key header is required (the Authorization header is not read: send the key as x-api-key: <key>)',
    );
    expect(await send(['x-api-key', server.apiKey, 'x-api-key', server.apiKey])).toBe(
      'the x-api-key header is given more than once: send it once',
    );
    expect(await send(['x-api-key', ''])).toBe('the x-api-key header is empty: send the API key in it');
    expect(await send([])).toBe('the x-api-key header is required');
    expect(await send(['x-api-key', 'wd_key_nope_x'])).toBe('the API key is not valid or was revoked');
  });

  it("answers 404 for another owner's run, never 403", async () => {
    const other = apiClient(server.url, await server.createKey());
    const created = await other('POST', '/api/v1/crawl', { urls: ['https://example.invalid/'] });
    expect(created.status).toBe(202);
    expectError(await call('GET', `/api/v1/runs/${created.body.id}`), 404, 'not_found');
    expectError(await call('POST', `/api/v1/runs/${created.body.id}/cancel`), 404, 'not_found');
    expectError(await call('DELETE', `/api/v1/runs/${created.body.id}`), 404, 'not_found');
    expect((await call('GET', `/api/v1/runs?ids=${created.body.id}`)).body.data).toEqual([]);
    await other('DELETE', `/api/v1/runs/${created.body.id}`);
  });

  it('echoes a request id on every response, including errors', async () => {
    const response = await call('GET', '/api/v1/runs', undefined, { 'x-request-id': 'trace-123' });
    expect(response.headers['x-request-id']).toBe('trace-123');
    expect((await call('GET', '/nowhere')).headers['x-request-id']).toMatch(/^req_/);
  });
});

describe('4xx answers of api-v1.md', () => {
  it('400 for a path segment over 2,048 characters, saying so without echoing the path', async () => {
    const error = expectError(
      await call('GET', `/api/v1/runs/run_${'a'.repeat(3000)}`),
      400,
      'invalid_request',
    );
    // It was "malformed request: '/api/v1/runs/run_aaa…' is exceeding the max param length": 3 KB of echo.
    expect(error.message).toBe(
      'a path segment is longer than 2,048 characters: ids are much shorter, so the URL is not one this API made',
    );
  });

  it('400 for a query parameter given twice, naming it (it said "expected number, received NaN")', async () => {
    for (const [path, name] of [
      ['/api/v1/runs?limit=2&limit=3', 'limit'],
      ['/api/v1/runs?status=completed&status=failed', 'status'],
      ['/api/v1/runs?ids=run_a&ids=run_b', 'ids'],
      ['/api/v1/collections?cursor=a&cursor=b', 'cursor'],
    ] as const) {
      const error = expectError(await call('GET', path), 400, 'invalid_request');
      const message = `${name} is given 2 times: give it once${name === 'ids' ? ' (ids takes a comma-separated list)' : ''}`;
      expect(error.message).toBe(`invalid query: query.${name}: ${message}`);
      expect(error.details).toEqual([{ path: [name], code: 'repeated_parameter', message }]);
    }
    expect((await call('GET', '/api/v1/runs?limit=2&ids=run_a,run_b')).status).toBe(200);
  });

  it('400 for a query number that is not one, quoting what was sent (it said "expected number, received NaN")', async () => {
    for (const [path, name, message] of [
      ['/api/v1/runs?limit=abc', 'limit', 'expected a number, got "abc"'],
      ['/api/v1/runs?limit=1.5', 'limit', 'expected a whole number, got "1.5"'],
      ['/api/v1/runs?wait=soon', 'wait', 'expected a number, got "soon"'],
      ['/api/v1/runs/run_x?wait=10s', 'wait', 'expected a number, got "10s"'],
      [
        `/api/v1/collections?limit=${'9x'.repeat(30)}`,
        'limit',
        `expected a number, got "${'9x'.repeat(20)}…"`,
      ],
    ] as const) {
      const error = expectError(await call('GET', path), 400, 'invalid_request');
      expect(error.message).toBe(`invalid query: query.${name}: ${message}`);
      expect(error.details).toEqual([{ path: [name], code: 'invalid_type', message }]);
    }
  });

  it('400 invalid_request with details naming each bad field', async () => {
    const error = expectError(
      await call('POST', '/api/v1/extract', { urls: ['ftp://files.example/a', '/relative'], query: 'x' }),
      400,
      'invalid_request',
    );
    expect(error.details?.map((d) => d.path)).toEqual([
      ['urls', 0],
      ['urls', 1],
    ]);
    expectError(await call('POST', '/api/v1/extract', { query: 'x' }), 400, 'invalid_request');
    const tooMany = Array.from({ length: 101 }, (_, i) => `https://a.example/${i}`);
    expect(
      expectError(await call('POST', '/api/v1/crawl', { urls: tooMany }), 400, 'invalid_request').details?.[0]
        ?.path,
    ).toEqual(['urls']);
    expectError(
      await call('POST', '/api/v1/runs', { type: 'scrape', urls: ['https://a.example/'] }),
      400,
      'invalid_request',
    );
    expectError(
      await call('POST', '/api/v1/extract', { urls: ['https://a.example/'], schema: { properties: {} } }),
      400,
      'invalid_request',
    );
    expectError(await call('POST', '/api/v1/crawl', '{"urls": [', {}), 400, 'invalid_request');
    expectError(await call('GET', '/api/v1/runs?limit=0'), 400, 'invalid_request');
    expectError(await call('GET', '/api/v1/runs?status=paused'), 400, 'invalid_request');
    expectError(
      await call('POST', '/api/v1/deep-crawl', { url: 'https://a.example/', limit: 20_000 }),
      400,
      'invalid_request',
    );
  });

  it('400 for a body with a __proto__ key, however it is spelled; a property named constructor is kept', async () => {
    const proto = [
      '{"urls":["https://a.example/"],"schema":{"type":"object","properties":{"__proto__":{"type":"string"}}}}',
      '{"urls":["https://a.example/"],"__proto__":{"screenshot":true}}',
      '{"urls":["https://a.example/"],"query":"x","schema":{"type":"object","properties":{"\\u005f_proto__":{}}}}',
      '{"urls":["https://a.example/"],"query":"x","constructor":{"prototype":{"polluted":true}}}',
    ];
    for (const body of proto) {
      const error = expectError(await call('POST', '/api/v1/extract', body), 400, 'invalid_request');
      expect(error.message).toMatch(/__proto__/);
    }
    const schema = {
      type: 'object',
      properties: { constructor: { type: 'string' }, toString: { type: 'string' } },
      required: ['constructor'],
    };
    const created = await call('POST', '/api/v1/extract', { urls: ['https://a.example/'], schema });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(created.body.params.schema).toEqual(schema);
    await call('DELETE', `/api/v1/runs/${created.body.id}`);
  });

  it('400 for an extraction schema that is not valid JSON Schema', async () => {
    const error = expectError(
      await call('POST', '/api/v1/extract', {
        urls: ['https://a.example/'],
        schema: { type: 'object', properties: { a: { type: 'string', minLength: 'x' } } },
      }),
      400,
      'invalid_request',
    );
    expect(error.details?.[0]?.path).toEqual(['schema', 'properties', 'a', 'minLength']);
  });

  it('404 not_found for unknown runs, results and routes', async () => {
    expectError(await call('GET', '/api/v1/runs/run_doesnotexist'), 404, 'not_found');
    expectError(await call('GET', '/api/v1/runs/run_x/results/res_y/content'), 404, 'not_found');
    expectError(await call('GET', '/api/v1/nothing-here'), 404, 'not_found');
  });

  it('409 conflict for an action the state does not allow', async () => {
    const created = await call('POST', '/api/v1/crawl', { urls: ['https://example.invalid/'] });
    const refused = expectError(await call('POST', `/api/v1/runs/${created.body.id}/retry`), 409, 'conflict');
    expect(refused.message).toBe(
      'cannot retry a run that is queued; only runs that are incomplete, failed or cancelled can be',
    );
    await call('POST', `/api/v1/runs/${created.body.id}/cancel`);
    expectError(await call('POST', `/api/v1/runs/${created.body.id}/cancel`), 409, 'conflict');
  });

  it('takes an empty application/json body on the POSTs that have no body, and refuses one where a body is needed', async () => {
    // The specification sends `Content-Type: application/json` with request bodies, and many
    // clients send it on every POST, body or not: cancel and retry must not refuse that.
    const json = { 'content-type': 'application/json' };
    const created = await call('POST', '/api/v1/crawl', { urls: ['https://example.invalid/'] });
    const cancelled = await call('POST', `/api/v1/runs/${created.body.id}/cancel`, '', json);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await call('POST', `/api/v1/runs/${created.body.id}/retry`, '', json)).status).toBe(202);
    const error = expectError(await call('POST', '/api/v1/crawl', '', json), 400, 'invalid_request');
    expect(error.message).toMatch(/request body is required/);
    // A JSON body that is not an object says what it is (null read as "received undefined").
    for (const [body, got] of [
      ['null', 'null'],
      ['[]', 'an array'],
      ['"https://example.org/"', 'a string'],
      ['7', 'a number'],
    ]) {
      const refused = expectError(await call('POST', '/api/v1/crawl', body, json), 400, 'invalid_request');
      expect(refused.message, body).toBe(`request body must be a JSON object, got ${got}`);
      expect(refused.details, body).toEqual([
        { path: [], code: 'invalid_type', message: `request body must be a JSON object, got ${got}` },
      ]);
    }
  });

  it('413 payload_too_large over the body limit', async () => {
    const huge = JSON.stringify({ urls: ['https://a.example/'], query: 'x'.repeat(1_100_000) });
    const error = expectError(await call('POST', '/api/v1/extract', huge), 413, 'payload_too_large');
    // The answer says what the limit is, so a client knows how far to cut its request.
    expect(error.message).toBe('request body is larger than the limit of 1,048,576 bytes (1 MiB)');
  });

  it('415 unsupported_media_type for a compressed body, saying to send it uncompressed', async () => {
    const body = JSON.stringify({ urls: ['https://a.example/'] });
    const send = async (encoding: string, bytes: Buffer) => {
      const response = await request(`${server.url}/api/v1/crawl`, {
        method: 'POST',
        headers: {
          'x-api-key': server.apiKey,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body: bytes,
      });
      const text = await response.body.text();
      return { status: response.statusCode, headers: response.headers, body: JSON.parse(text) };
    };
    // Some clients (Apify's among them) gzip larger bodies; this server reads none: it said "not valid UTF-8".
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(body)],
      ['br', brotliCompressSync(body)],
      ['deflate, gzip', gzipSync(deflateSync(body))],
    ] as const) {
      const refused = await send(encoding, bytes);
      const error = expectError(refused, 415, 'unsupported_media_type');
      expect(error.message).toBe(
        `Content-Encoding ${encoding} is not read here: send the JSON body uncompressed (no Content-Encoding, or identity)`,
      );
      expect(refused.headers['accept-encoding']).toBe('identity');
    }
    expect((await send('identity', Buffer.from(body))).status).toBe(202);
  });

  it('415 unsupported_media_type for a body that is not JSON', async () => {
    expectError(
      await call('POST', '/api/v1/crawl', 'urls=https://a.example/', {
        'content-type': 'application/x-www-form-urlencoded',
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('422 unprocessable_url for private and loopback targets while the guard is on', async () => {
    const error = expectError(
      await call('POST', '/api/v1/crawl', { urls: ['http://127.0.0.1:9/'] }),
      422,
      'unprocessable_url',
    );
    expect(error.message).toMatch(/loopback/);
    expectError(
      await call('POST', '/api/v1/deep-crawl', { url: 'http://[::1]:9/' }),
      422,
      'unprocessable_url',
    );
  });

  it('429 rate_limited with Retry-After past the key rate (a burst of 3, then 1 per second)', async () => {
    const strict = await startServer({
      dataDir: join(server.dataDir, 'strict'),
      logLevel: 'silent',
      runWorkers: false,
      rateLimitPerSecond: 1,
      rateLimitBurst: 3,
    });
    try {
      const limited = apiClient(strict.url, strict.apiKey);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited('GET', '/api/v1/runs?limit=1')).status);
      expect(statuses).toEqual([200, 200, 200]);
      const refused = await limited('GET', '/api/v1/runs?limit=1');
      expectError(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Another key has its own bucket.
      expect((await apiClient(strict.url, await strict.createKey())('GET', '/api/v1/runs')).status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('429 rate_limited with Retry-After past the runs one key may have queued or running; replays, other keys and ended runs are not held back', async () => {
    // On this suite's store (SQLite, and PostgreSQL in api-on-postgres); no workers, so runs stay queued.
    const capped = await startTestServer({ runWorkers: false, maxActiveRunsPerOwner: 3 });
    try {
      const crawl = (n: number) => ({ urls: [`https://example.org/${n}`] });
      const created: string[] = [];
      for (let n = 0; n < 3; n++) {
        const made = await capped.call('POST', '/api/v1/crawl', crawl(n), { 'idempotency-key': `k${n}` });
        expect(made.status, JSON.stringify(made.body)).toBe(202);
        created.push(made.body.id);
      }
      const refused = await capped.call('POST', '/api/v1/crawl', crawl(3));
      expect(expectError(refused, 429, 'rate_limited').message).toMatch(/3 runs queued or running/);
      expect(refused.headers['retry-after']).toBe('5');
      expectError(
        await capped.call('POST', '/api/v1/runs', { type: 'deep-crawl', url: 'https://example.org/' }),
        429,
        'rate_limited',
      );
      expect((await capped.call('GET', '/api/v1/runs?limit=200')).body.data).toHaveLength(3);
      // A replay of a creation answers its run; another key has room of its own.
      const replay = await capped.call('POST', '/api/v1/crawl', crawl(0), { 'idempotency-key': 'k0' });
      expect([replay.status, replay.body.id]).toEqual([202, created[0]]);
      const other = apiClient(capped.url, await capped.createKey());
      expect((await other('POST', '/api/v1/crawl', crawl(4))).status).toBe(202);
      // A run that ends makes room; a retry that would make a fourth active run is refused like a creation.
      expect((await capped.call('POST', `/api/v1/runs/${created[0]}/cancel`)).status).toBe(200);
      const fourth = await capped.call('POST', '/api/v1/crawl', crawl(5));
      expect(fourth.status).toBe(202);
      expectError(await capped.call('POST', `/api/v1/runs/${created[0]}/retry`), 429, 'rate_limited');
      expect((await capped.call('POST', `/api/v1/runs/${fourth.body.id}/cancel`)).status).toBe(200);
      const retried = await capped.call('POST', `/api/v1/runs/${created[0]}/retry`);
      expect([retried.status, retried.body.status]).toEqual([202, 'queued']);
    } finally {
      await capped.close();
    }
  });

  it('429 rate_limited with Retry-After past the 401 limit per address; a valid key is still served', async () => {
    const strict = await startServer({
      dataDir: join(server.dataDir, 'strict-401'),
      logLevel: 'silent',
      runWorkers: false,
      authFailureRatePerSecond: 1,
      authFailureBurst: 3,
    });
    try {
      const guessing = apiClient(
        strict.url,
        'wd_key_00000000000000000000000000_guessguessguessguessguessguessgu',
      );
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await guessing('GET', '/api/v1/runs')).status);
      expect(statuses).toEqual([401, 401, 401]);
      const refused = await guessing('GET', '/api/v1/runs');
      expectError(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // No key at all counts the same.
      expectError(await apiClient(strict.url, '')('GET', '/api/v1/runs'), 429, 'rate_limited');
      // The same address with a valid key is served.
      expect((await apiClient(strict.url, strict.apiKey)('GET', '/api/v1/runs')).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
