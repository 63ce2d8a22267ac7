import { ENDPOINTS, type Endpoint, ERROR_STATUS, ErrorBody, LIMITS } from '@webdata/contract';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer } from './test-server.js';

/**
 * Property-based bad-input test of the whole HTTP API: generated malformed
 * bodies, headers, ids and queries go to every route of the contract's
 * ENDPOINTS, with and without a valid key. Whatever comes in, the answer is a
 * 4xx with the strict error body (or a 2xx/3xx when the input happens to be
 * valid), never a 5xx, and the server keeps answering.
 *
 * No workers run, so a run created by a valid input is never fetched: the
 * test sends no traffic beyond the server on 127.0.0.1.
 */

let server: TestServer;
/** A run that exists (queued forever, no workers), so some ids hit a real run. */
let queuedRunId: string;
/**
 * A cancelled run for the query batch: `?wait=` on a terminal run answers at
 * once, so generated waits cannot hold the batch up (GET routes never change it).
 */
let terminalRunId: string;

beforeAll(async () => {
  server = await startTestServer({
    // The SSRF guard stays on (the server's default, which the test helper turns off): nothing is fetched.
    allowPrivateNetworks: false,
    runWorkers: false,
  });
  const headers = { 'x-api-key': server.apiKey, 'content-type': 'application/json' };
  const createRun = async () => {
    const body = JSON.stringify({ urls: ['https://example.invalid/'] });
    const created = await send({ method: 'POST', path: '/api/v1/crawl', headers, body });
    expect(created.status).toBe(202);
    return (JSON.parse(created.text) as { id: string }).id;
  };
  queuedRunId = await createRun();
  terminalRunId = await createRun();
  const cancel = await send({
    method: 'POST',
    path: `/api/v1/runs/${terminalRunId}/cancel`,
    headers: { 'x-api-key': server.apiKey },
  });
  expect(cancel.status).toBe(200);
});

afterAll(async () => {
  await server?.close();
});

/** One generated request. Header values may be arrays (the header sent twice). */
interface FuzzRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
}

async function send(
  req: FuzzRequest,
): Promise<{ status: number; contentType: string; requestId: unknown; text: string }> {
  const response = await request(`${server.url}${req.path}`, {
    method: req.method,
    headers: req.headers,
    body: req.body,
  });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    contentType: String(response.headers['content-type'] ?? ''),
    requestId: response.headers['x-request-id'],
    text,
  };
}

/** Renders a request for a failure message: enough to replay it, with big bodies cut. */
function describeRequest(req: FuzzRequest): string {
  const body =
    req.body === undefined
      ? undefined
      : Buffer.isBuffer(req.body)
        ? `<${req.body.length} bytes> ${req.body.subarray(0, 200).toString('hex')}`
        : req.body.length > 400
          ? `${req.body.slice(0, 300)}…<${req.body.length} chars>`
          : req.body;
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [
      k,
      String(v).length > 200 ? `<${String(v).length} chars>` : v,
    ]),
  );
  return JSON.stringify({ method: req.method, path: req.path.slice(0, 500), headers, body });
}

/**
 * The statuses the contract (and so the OpenAPI document) says this endpoint
 * answers: its success, 304 when it is conditional, and its error codes'.
 */
function documentedStatuses(endpoint: Endpoint): Set<number> {
  return new Set([
    endpoint.success.status,
    ...(endpoint.conditional ? [304] : []),
    ...endpoint.errors.map((code) => ERROR_STATUS[code]),
  ]);
}

/**
 * The property: never a 5xx; the status is one the endpoint documents; a 4xx
 * carries the strict error body and an `x-request-id` header equal to its
 * `request_id`; keyless requests to authenticated routes are 401.
 */
async function checkAnswer(req: FuzzRequest, endpoint: Endpoint): Promise<void> {
  const answer = await send(req);
  const context = `${describeRequest(req)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, context).toBeLessThan(500);
  expect(answer.status, context).toBeGreaterThanOrEqual(200);
  expect([...documentedStatuses(endpoint)], `${endpoint.operationId}: ${context}`).toContain(answer.status);
  if (answer.status >= 400) {
    expect(answer.contentType, context).toMatch(/^application\/json/);
    const parsed = ErrorBody.safeParse(JSON.parse(answer.text));
    expect(parsed.success, `${context}\n${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    expect(answer.requestId, context).toBe(parsed.data!.error.request_id);
  }
  const key = req.headers['x-api-key'];
  if (endpoint.authenticated && key !== server.apiKey && routable(req.path))
    expect(answer.status, context).toBe(401);
}

/**
 * False for a path the router refuses before any route, and so before the
 * auth hook, runs (a malformed %-escape, a segment over the router's 2048
 * characters): those answer 400 with or without a key, which leaks nothing.
 */
function routable(path: string): boolean {
  const pathname = path.split('?')[0]!;
  try {
    decodeURIComponent(pathname);
  } catch {
    return false;
  }
  return pathname.split('/').every((segment) => segment.length <= 2048);
}

/** GET /healthz after each batch: the server still answers. */
async function expectHealthy(): Promise<void> {
  const health = await send({ method: 'GET', path: '/healthz', headers: {} });
  expect(health.status).toBe(200);
}

// ---------------------------------------------------------------------------
// Arbitraries

const METHOD = { get: 'GET', post: 'POST', delete: 'DELETE' } as const;

/**
 * Endpoints by operation id: arbitraries draw the id, so a counterexample
 * prints as `"getRun"` rather than as a dump of the endpoint's schemas.
 */
const byOperation = new Map(ENDPOINTS.map((endpoint) => [endpoint.operationId, endpoint]));
const endpointOf = (operationId: string) => byOperation.get(operationId)!;
const anyOf = (endpoints: readonly Endpoint[]) => fc.constantFrom(...endpoints.map((e) => e.operationId));
const bodyEndpoints = ENDPOINTS.filter((e) => e.body !== undefined);
const postEndpoints = ENDPOINTS.filter((e) => e.method === 'post');
const pathEndpoints = ENDPOINTS.filter((e) => e.path.includes('{'));
const queryEndpoints = ENDPOINTS.filter((e) => e.method === 'get');

/** A valid body for each body-taking endpoint, the starting point of "one field wrong". */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  '/api/v1/search': { query: 'hello world', collection: 'default', limit: 5, filters: { site: 'a.example' } },
  '/api/v1/extract': {
    urls: ['https://example.invalid/a'],
    query: 'the title',
    schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    screenshot: false,
  },
  '/api/v1/crawl': {
    urls: ['https://example.invalid/a'],
    limit: 3,
    formats: ['markdown'],
    screenshot: false,
    collection: 'default',
    include_paths: ['/a/**'],
    exclude_paths: ['/b'],
    respect_robots: true,
  },
  '/api/v1/deep-crawl': {
    url: 'https://example.invalid/',
    max_depth: 1,
    limit: 5,
    use_sitemap: false,
    same_site: true,
    formats: ['markdown', 'links'],
    collection: 'default',
  },
  '/api/v1/runs': { type: 'crawl', urls: ['https://example.invalid/a'] },
};

/** Every top-level field a request schema declares (all options of a union). */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodDiscriminatedUnion)
    return [...new Set(schema.options.flatMap((option) => fieldsOf(option as z.ZodType)))];
  return [];
}

/** Nested fields worth breaking too, as paths into the valid body. */
const NESTED_FIELDS: Record<string, string[][]> = {
  '/api/v1/search': [['filters', 'site'], ['filters', 'url_prefix'], ['filters']],
  '/api/v1/extract': [
    ['urls', '0'],
    ['schema', 'type'],
    ['schema', 'properties'],
    ['schema', 'properties', 'title'],
    ['schema', 'properties', 'title', 'type'],
    ['schema', 'required'],
  ],
  '/api/v1/crawl': [
    ['urls', '0'],
    ['formats', '0'],
    ['include_paths', '0'],
  ],
  '/api/v1/deep-crawl': [['formats', '1']],
  '/api/v1/runs': [['urls', '0']],
};

/** Text that stands in for a JSON value, then is replaced by raw JSON text (so any depth can be sent). */
const HOLE = '"__fuzz_hole__"';

/** Deeply nested JSON, as text: arrays, objects or a mix. */
const deepJson = fc
  .record({ depth: fc.integer({ min: 50, max: 20_000 }), kind: fc.constantFrom('array', 'object', 'mixed') })
  .map(({ depth, kind }) => {
    if (kind === 'array') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
    if (kind === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    return `${'{"properties":{"a":'.repeat(depth)}{}${'}}'.repeat(depth)}`;
  });

/** A long JSON string (as text) that still fits the body limit: plain, multi-byte, escaped. */
const hugeString = fc
  .record({
    bytes: fc.integer({ min: 10_000, max: LIMITS.maxBodyBytes - 100_000 }),
    char: fc.constantFrom('x', 'é', '\u0000', '"', '\\', '😀'),
  })
  .map(({ bytes, char }) => {
    const perChar = Buffer.byteLength(JSON.stringify(char)) - 2;
    return JSON.stringify(char.repeat(Math.floor(bytes / perChar)));
  });

/** A JSON value of the wrong type (or an odd value of the right one), as JSON text. */
const wrongValue = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'null',
      'true',
      'false',
      '0',
      '-1',
      '-0',
      '1.5',
      '1e309',
      '-1e309',
      '123456789012345678901234567890',
      '""',
      '" "',
      '[]',
      '{}',
      '[null]',
      '[[]]',
      '"\\u0000"',
      '"\\ud800"',
      '"\\udfff\\ud800"',
      '"ftp://a.example/"',
      '"javascript:alert(1)"',
      '"http://"',
      '"https://[::1"',
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '["markdown","markdown","markdown","markdown","markdown"]',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: hugeString },
);

/** Puts raw JSON text `value` at `path` of `base`, returning the body text. */
function withValueAt(base: Record<string, unknown>, path: string[], value: string): string {
  const copy = structuredClone(base) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = '__fuzz_hole__';
  return JSON.stringify(copy).replace(HOLE, () => value);
}

/** A valid prefix, then bytes that are not UTF-8, then a valid end. */
const invalidUtf8 = fc
  .record({
    bad: fc
      .uint8Array({ minLength: 1, maxLength: 40 })
      .map((bytes) =>
        Buffer.concat([Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]), Buffer.from(bytes)]),
      ),
    where: fc.constantFrom('string', 'key', 'bare'),
  })
  .map(({ bad, where }) =>
    where === 'string'
      ? Buffer.concat([Buffer.from('{"query":"'), bad, Buffer.from('","urls":["https://example.invalid/"]}')])
      : where === 'key'
        ? Buffer.concat([Buffer.from('{"'), bad, Buffer.from('":1}')])
        : bad,
  );

/** Whole bodies that are not what any route wants. */
const badBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  {
    weight: 2,
    arbitrary: fc.anything({ maxDepth: 3 }).map((v) => {
      try {
        return JSON.stringify(v) ?? 'undefined';
      } catch {
        return String(v);
      }
    }),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 200 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '{',
      '}',
      'undefined',
      'NaN',
      "{'query':'x'}",
      '{"query":"x"}garbage',
      '{"query":"x",}',
      '\u0000',
      '\ufeff{"query":"x"}',
      '{"urls":["https://example.invalid/"],"urls":5,"query":"a","query":"b"}',
      '{"type":"crawl","type":"extract","urls":["https://example.invalid/"],"query":"x"}',
      '{"query":"x","query":{"nested":true}}',
      '{"__proto__":{"polluted":true},"query":"x"}',
      '{"constructor":{"prototype":{"polluted":true}},"query":"x"}',
      '[{"query":"x"}]',
      '"just a string"',
      '12345',
      'null',
    ),
  },
  { weight: 2, arbitrary: invalidUtf8 },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: hugeString.map((text) => `{"query":${text},"urls":["https://example.invalid/"]}`) },
);

/** Header-safe text (what undici will send): printable ASCII. */
const headerText = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

const apiKeyHeader = fc.oneof(
  { weight: 3, arbitrary: fc.constant<string | undefined>('valid') },
  { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      headerText(80),
      fc.constantFrom('', ' ', 'wd_', 'wd_key_00000000000000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
      fc.integer({ min: 1000, max: 8000 }).map((n) => 'k'.repeat(n)),
    ),
  },
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/json;;;',
  'Application/JSON',
  'application/vnd.api+json',
  'application/json, text/plain',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '*/*',
  ';',
  '',
  'json',
);

const oddHeaders = fc.record(
  {
    'idempotency-key': fc.oneof(
      headerText(300),
      fc.constantFrom('', ' ', '\t', 'x'.repeat(255), 'x'.repeat(256), 'x'.repeat(5000)),
      fc.constant(['a', 'b']),
    ),
    'if-none-match': fc.oneof(
      headerText(100),
      fc.constantFrom('*', 'W/"v1"', '"v1", "v2"', '""', '"v999999999999"'),
    ),
    accept: fc.oneof(
      headerText(100),
      fc.constantFrom(
        'text/markdown',
        'text/html;q=abc',
        'image/png',
        '*/*;q=0',
        'application/json;q=0, text/plain',
        ';;,,',
        'text/*',
      ),
    ),
    'x-request-id': fc.oneof(headerText(100), fc.constant('x'.repeat(65))),
  },
  { requiredKeys: [] },
);

/** Ids for path parameters: random, unicode, traversal, NUL, very long, and a real run. */
const pathId = fc.oneof(
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '..%2f..%2f..%2fetc%2fpasswd',
      '%00',
      'run_%00',
      '%',
      '%zz',
      '%C0%AF',
      '%ED%A0%80',
      '%FF',
      '%2F',
      'run_',
      'res_',
      "run_'; DROP TABLE runs; --",
      'run_%20',
      '~',
      'null',
      'undefined',
      '__proto__',
      'constructor',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 129, max: 5000 }).map((n) => 'r'.repeat(n)) },
  { weight: 2, arbitrary: fc.constant('REAL_RUN') },
);

/** Query strings: known keys with odd values, unknown keys, duplicates, broken escapes. */
function queryFor(endpoint: Endpoint) {
  const known = endpoint.query ? Object.keys(endpoint.query.shape) : [];
  const key = fc.oneof(fc.constantFrom(...known, 'unknown', '__proto__', 'limit[]', ''), headerText(10));
  const value = fc.oneof(
    fc.string({ maxLength: 30 }).map(encodeURIComponent),
    fc.constantFrom(
      '',
      '0',
      '-1',
      '1.5',
      '201',
      '1e3',
      'NaN',
      'Infinity',
      '%',
      '%zz',
      '%00',
      'a,,b',
      ',',
      'true',
    ),
    fc.integer({ min: 600, max: 4000 }).map((n) => 'c'.repeat(n)),
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 5 })
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&'));
}

/**
 * The route's path with its placeholders filled in; `REAL_RUN` becomes the
 * queued run (or, for the query batch, the terminal one). DELETE never gets
 * a real run, so the other batches keep theirs.
 */
function fillPath(endpoint: Endpoint, runId: string, resultId: string, realRun = queuedRunId): string {
  const real = (id: string) =>
    id !== 'REAL_RUN' ? id : endpoint.method === 'delete' ? 'run_notreal' : realRun;
  return endpoint.path.replace('{runId}', real(runId)).replace('{resultId}', real(resultId));
}

function keyHeader(choice: string | undefined): Record<string, string> {
  if (choice === undefined) return {};
  return { 'x-api-key': choice === 'valid' ? server.apiKey : choice };
}

// ---------------------------------------------------------------------------
// Properties

describe('bad input never gets a 5xx', () => {
  it('malformed whole bodies to every POST route', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyOf(postEndpoints),
        badBody,
        fc.oneof(
          { weight: 5, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: contentType },
        ),
        apiKeyHeader,
        async (operationId, body, type, key) => {
          const endpoint = endpointOf(operationId);
          const req: FuzzRequest = {
            method: 'POST',
            path: fillPath(endpoint, 'REAL_RUN', 'res_x'),
            headers: { ...keyHeader(key), 'content-type': type },
            body,
          };
          await checkAnswer(req, endpoint);
        },
      ),
      { numRuns: 120 },
    );
    await expectHealthy();
  });

  it('every field of every request schema given a wrong value', async () => {
    const targets = bodyEndpoints.flatMap((endpoint) => [
      ...fieldsOf(endpoint.body).map((field) => ({ operationId: endpoint.operationId, path: [field] })),
      ...(NESTED_FIELDS[endpoint.path] ?? []).map((path) => ({ operationId: endpoint.operationId, path })),
    ]);
    // Every body-taking endpoint has a base body to break, and every field of its schema is broken.
    for (const endpoint of bodyEndpoints) expect(VALID_BODIES[endpoint.path], endpoint.path).toBeDefined();
    expect(targets.length).toBeGreaterThan(30);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        wrongValue,
        apiKeyHeader,
        async ({ operationId, path }, value, key) => {
          const endpoint = endpointOf(operationId);
          const req: FuzzRequest = {
            method: 'POST',
            path: endpoint.path,
            headers: { ...keyHeader(key), 'content-type': 'application/json' },
            body: withValueAt(VALID_BODIES[endpoint.path]!, path, value),
          };
          await checkAnswer(req, endpoint);
        },
      ),
      { numRuns: 120 },
    );
    await expectHealthy();
  });

  it('odd headers on every route', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyOf(ENDPOINTS),
        apiKeyHeader,
        fc.option(contentType, { nil: undefined }),
        oddHeaders,
        fc.boolean(),
        async (operationId, key, type, headers, duplicateKey) => {
          const endpoint = endpointOf(operationId);
          const keyed = keyHeader(key);
          const valid = VALID_BODIES[endpoint.path];
          const req: FuzzRequest = {
            method: METHOD[endpoint.method],
            path: fillPath(endpoint, 'REAL_RUN', 'res_x'),
            headers: {
              ...(headers as Record<string, string | string[]>),
              ...(duplicateKey && keyed['x-api-key']
                ? { 'x-api-key': [keyed['x-api-key'], 'second'] }
                : keyed),
              ...(type !== undefined ? { 'content-type': type } : {}),
            },
            ...(endpoint.method === 'post' ? { body: JSON.stringify(valid ?? {}) } : {}),
          };
          await checkAnswer(req, endpoint);
        },
      ),
      { numRuns: 90 },
    );
    await expectHealthy();
  });

  it('odd ids in every path with parameters', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyOf(pathEndpoints),
        pathId,
        pathId,
        apiKeyHeader,
        async (operationId, runId, resultId, key) => {
          const endpoint = endpointOf(operationId);
          const req: FuzzRequest = {
            method: METHOD[endpoint.method],
            path: fillPath(endpoint, runId, resultId),
            headers: keyHeader(key),
          };
          await checkAnswer(req, endpoint);
        },
      ),
      { numRuns: 90 },
    );
    await expectHealthy();
  });

  it('odd query strings on every GET route', async () => {
    const withQuery = queryEndpoints.map((endpoint) => ({
      operationId: endpoint.operationId,
      query: queryFor(endpoint),
    }));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(...withQuery.map(({ operationId, query }) => query.map((q) => ({ operationId, q })))),
        apiKeyHeader,
        async ({ operationId, q }, key) => {
          const endpoint = endpointOf(operationId);
          const req: FuzzRequest = {
            method: 'GET',
            path: `${fillPath(endpoint, 'REAL_RUN', 'res_x', terminalRunId)}?${q}`,
            headers: keyHeader(key),
          };
          await checkAnswer(req, endpoint);
        },
      ),
      { numRuns: 70 },
    );
    await expectHealthy();
  });
});

describe('inputs that once broke the property (exact regressions)', () => {
  const key = () => ({ 'x-api-key': server.apiKey });

  /** The property for one exact input, which must be refused with 400 invalid_request. */
  async function expectRefused(req: FuzzRequest): Promise<void> {
    const answer = await send(req);
    expect(answer.status, answer.text).toBe(400);
    const body = ErrorBody.parse(JSON.parse(answer.text));
    expect(body.error.code).toBe('invalid_request');
  }

  it('an extraction schema nested 1000 levels deep is refused, not a stack overflow (was a 500)', async () => {
    const depth = 1000;
    const schema = `${'{"properties":{"a":'.repeat(depth)}{}${'}}'.repeat(depth)}`;
    await expectRefused({
      method: 'POST',
      path: '/api/v1/extract',
      headers: { ...key(), 'content-type': 'application/json' },
      body: `{"urls":["https://example.invalid/a"],"query":"x","schema":${schema}}`,
    });
  });

  it("a malformed %-escape in a path gets the one error body (was Fastify's own FST_ERR_BAD_URL body)", async () => {
    for (const id of ['%ED%A0%80', '%', '%zz', '%C0%AF', '%FF'])
      await expectRefused({ method: 'GET', path: `/api/v1/runs/${id}`, headers: key() });
  });

  it("a path parameter of 200 to 5000 characters gets the one error body (was Fastify's own 414 body)", async () => {
    for (const length of [200, 2049, 5000])
      await expectRefused({ method: 'GET', path: `/api/v1/runs/run_${'r'.repeat(length)}`, headers: key() });
  });
});

describe('every answer is one the OpenAPI document lists for its endpoint', () => {
  it('an over-long id on every path with parameters, and a malformed body on every POST and DELETE', async () => {
    const long = `run_${'r'.repeat(300)}`;
    for (const endpoint of pathEndpoints) {
      await checkAnswer(
        {
          method: METHOD[endpoint.method],
          path: endpoint.path.replace(/\{[^}]+\}/g, long),
          headers: { 'x-api-key': server.apiKey },
        },
        endpoint,
      );
    }
    const bodies: { type: string; body: string }[] = [
      { type: 'application/json', body: '{bad' },
      { type: 'application/json', body: `${'['.repeat(100)}${']'.repeat(100)}` },
      { type: 'text/plain', body: 'hello' },
      { type: 'application/json', body: `"${'x'.repeat(LIMITS.maxBodyBytes + 10)}"` },
    ];
    for (const endpoint of ENDPOINTS.filter((e) => e.method !== 'get')) {
      for (const { type, body } of bodies) {
        await checkAnswer(
          {
            method: METHOD[endpoint.method],
            path: fillPath(endpoint, 'REAL_RUN', 'res_x'),
            headers: { 'x-api-key': server.apiKey, 'content-type': type },
            body,
          },
          endpoint,
        );
      }
    }
  });
});
