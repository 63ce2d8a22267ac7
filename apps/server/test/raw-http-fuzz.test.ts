/**
 * Property-based test of the server below the API: raw bytes over a TCP
 * socket (malformed request lines, methods, targets and versions, broken or
 * oversized headers, bad %-escapes, conflicting lengths, broken chunked
 * encodings, `Expect`, bodies that are not UTF-8). Whatever arrives, every
 * answer that is not 1xx/2xx/3xx is a 4xx with the one error body and an
 * `x-request-id` header equal to the body's `request_id`; never a 5xx, never
 * Node's or Fastify's own bodies, and the server keeps answering.
 *
 * No workers run, and the only traffic is to the server on 127.0.0.1.
 */
import { connect } from 'node:net';
import { ErrorBody } from '@webdata/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
let port: number;

beforeAll(async () => {
  // Short request time-outs (the defaults are 10 s and 30 s), so the slow-request cases end quickly.
  server = await startTestServer({
    allowPrivateNetworks: false,
    runWorkers: false,
    headersTimeoutMs: 1_000,
    requestTimeoutMs: 2_000,
  });
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await server?.close();
});

/** One parsed response of the byte stream. */
interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

/** Sends `bytes`, half-closes, and collects everything the server writes until it closes (or `ms` passes). */
function exchange(bytes: Buffer, ms = 5_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`no close within ${ms} ms; got ${Buffer.concat(chunks).toString('latin1').slice(0, 300)}`),
      );
    }, ms);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset after the answer is fine; what was read counts
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    socket.end(bytes);
  });
}

/**
 * Writes `parts` `gapMs` apart without ever ending the request, and collects
 * what the server writes until it closes the connection (rejects after `ms`).
 */
function dribble(parts: string[], gapMs: number, ms = 15_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let next = 0;
    const writer = setInterval(() => {
      if (next < parts.length && socket.writable) socket.write(parts[next++]!);
    }, gapMs);
    const timer = setTimeout(() => {
      clearInterval(writer);
      socket.destroy();
      reject(new Error(`the server held a slow request for ${ms} ms`));
    }, ms);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(writer);
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
  });
}

/** Splits a byte stream into HTTP/1.1 responses (Content-Length or chunked bodies). */
function parseResponses(stream: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < stream.length) {
    const end = stream.indexOf('\r\n\r\n', at);
    if (end < 0)
      throw new Error(`an incomplete response head: ${stream.subarray(at).toString('latin1').slice(0, 300)}`);
    const [statusLine, ...lines] = stream.subarray(at, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3}) /.exec(`${statusLine} `);
    if (!match) throw new Error(`not a status line: ${statusLine}`);
    const headers = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const status = Number(match[1]);
    at = end + 4;
    let body: Buffer = Buffer.alloc(0);
    if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = stream.indexOf('\r\n', at);
        const size = Number.parseInt(stream.subarray(at, lineEnd).toString('latin1'), 16);
        at = lineEnd + 2;
        if (size === 0) {
          at = stream.indexOf('\r\n', at) + 2;
          break;
        }
        parts.push(stream.subarray(at, at + size));
        at += size + 2;
      }
      body = Buffer.concat(parts);
    } else if (status >= 200 && status !== 204 && status !== 304) {
      const length = Number(headers.get('content-length') ?? stream.length - at);
      body = stream.subarray(at, at + length);
      at += length;
    }
    responses.push({ status, headers, body });
  }
  return responses;
}

// ---------------------------------------------------------------------------
// Arbitraries: the parts of a request, each mostly valid and sometimes not.

const text = (chars: string, max: number) =>
  fc.string({ unit: fc.constantFrom(...chars.split('')), maxLength: max });

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'DELETE') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'PUT',
      'PATCH',
      'OPTIONS',
      'TRACE',
      'CONNECT',
      'PRI',
      'get',
      'G\x00T',
      'GET GET',
      '',
    ),
  },
  { weight: 1, arbitrary: text('ABCXYZ-_!~\x7f\t', 12) },
);

const ROUTES = [
  '/healthz',
  '/api/v1/runs',
  '/api/v1/runs/run_x',
  '/api/v1/runs/run_x/results',
  '/api/v1/crawl',
  '/api/v1/extract',
  '/api/v1/search',
  '/api/v1/openapi.json',
  '/api/v1/signed/screenshots/run_x/res_x?expires=1&signature=x',
  '/nowhere',
];
const target = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ROUTES) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...ROUTES), text('%/?#&=.zZ09AaFfE8C\\ \t\x00\x7f\xe9', 12))
      .map(([route, tail]) => `${route}${tail}`),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '*',
      '',
      '//',
      'http://127.0.0.1/healthz',
      'http:///api/v1/runs',
      '127.0.0.1:80',
      '/api/v1/runs/%',
      '/api/v1/runs/%zz',
      '/api/v1/runs/%ED%A0%80',
      '/api/v1/runs/%C0%AF',
      '/api/v1/runs?limit=%',
      '/api/v1/runs?limit=%FF%FE',
      `/api/v1/runs/${'r'.repeat(3000)}`,
      `/${'a'.repeat(20_000)}`,
    ),
  },
);

const version = fc.oneof(
  { weight: 6, arbitrary: fc.constant('HTTP/1.1') },
  { weight: 2, arbitrary: fc.constant('HTTP/1.0') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1x', 'http/1.1', 'HTTP/1', '', 'HTTP/9.9'),
  },
);

const eol = fc.oneof(
  { weight: 8, arbitrary: fc.constant('\r\n') },
  { weight: 1, arbitrary: fc.constantFrom('\n', '\r') },
);

/** One header line (without its line end). */
const header = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('x-api-key: KEY', 'x-api-key: wd_key_nope', 'content-type: application/json'),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'content-type: text/plain',
      'content-type: application/json; charset=latin1',
      'content-length: 5',
      'content-length: -1',
      'content-length: 1e3',
      'content-length: 99999999999999999999',
      'content-length: 2, 3',
      'transfer-encoding: chunked',
      'transfer-encoding: gzip, chunked',
      'transfer-encoding: nope',
      'content-encoding: gzip',
      'expect: 100-continue',
      'expect: something-else',
      'x-request-id: ../../etc',
      'x-request-id: ok.id-1',
      'connection: upgrade',
      'upgrade: websocket',
      'host: 127.0.0.1',
      'host:',
      'accept-encoding: gzip, br',
      'if-none-match: "x"',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'no colon here',
      ': empty name',
      'bad name: x',
      'x-ok:\x00null',
      'x-ok: caf\xe9',
      ' folded: continuation',
      'x-big: ' + 'b'.repeat(20_000),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(text('abcXYZ-_:@ ', 10), text('abc \t"\\\x01\x7f\xff', 20))
      .map(([n, v]) => `${n}: ${v}`),
  },
);

/** A body: JSON, bytes that are not UTF-8, a chunked encoding (valid or not), or nothing. */
const body = fc.oneof(
  { weight: 3, arbitrary: fc.constant(Buffer.alloc(0)) },
  { weight: 2, arbitrary: fc.constant(Buffer.from('{"urls":["https://example.invalid/"]}')) },
  {
    weight: 2,
    arbitrary: fc.constant(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('5\r\n{"a":\r\n2\r\n1}\r\n0\r\n\r\n', 'zz\r\nxx\r\n', '3\r\nab', '0\r\n\r\n')
      .map((s) => Buffer.from(s, 'latin1')),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)) },
);

interface RawRequest {
  method: string;
  target: string;
  version: string;
  eol: string;
  headers: string[];
  host: boolean;
  body: Buffer;
}

const rawRequest: fc.Arbitrary<RawRequest> = fc.record({
  method,
  target,
  version,
  eol,
  headers: fc.array(header, { maxLength: 5 }),
  host: fc.boolean(),
  body,
});

function encode(req: RawRequest): Buffer {
  const headers = req.headers.map((h) => h.replace('KEY', server.apiKey));
  if (req.host) headers.unshift(`host: 127.0.0.1:${port}`);
  const requestLine = [req.method, req.target, req.version]
    .filter((part, i) => i < 2 || part !== '')
    .join(' ');
  const head = [requestLine, ...headers].join(req.eol) + req.eol + req.eol;
  return Buffer.concat([Buffer.from(head, 'latin1'), req.body]);
}

function describeRaw(bytes: Buffer): string {
  const shown = bytes.toString('latin1').replace(/([a-z])\1{50,}/g, (run, c) => `${c}×${run.length}`);
  return JSON.stringify(shown.slice(0, 600));
}

/** The property for one exchange: answered, and every non-2xx answer in the one error shape with its request id. */
function checkExchange(sent: Buffer, received: Buffer): void {
  const context = `${describeRaw(sent)} → ${JSON.stringify(received.toString('latin1').slice(0, 400))}`;
  expect(received.length, `no answer to ${context}`).toBeGreaterThan(0);
  const responses = parseResponses(received);
  for (const response of responses) {
    if (response.status < 300 && response.status !== 204) continue;
    if (response.status === 304 || response.status < 200) continue;
    expect(response.status, context).toBeGreaterThanOrEqual(400);
    expect(response.status, context).toBeLessThan(500);
    expect(response.headers.get('content-type'), context).toMatch(/^application\/json/);
    const parsed = ErrorBody.safeParse(JSON.parse(response.body.toString('utf8')));
    expect(parsed.success, `${context}\n${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    expect(response.headers.get('x-request-id'), context).toBe(parsed.data!.error.request_id);
  }
}

describe('raw HTTP over a socket', () => {
  it('answers every malformed request line, header, escape and encoding in the one error shape', async () => {
    await fc.assert(
      fc.asyncProperty(rawRequest, async (req) => {
        const bytes = encode(req);
        checkExchange(bytes, await exchange(bytes));
      }),
      { numRuns: 400 },
    );
    const health = parseResponses(
      await exchange(Buffer.from(`GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`)),
    );
    expect(health[0]!.status).toBe(200);
  });
});

describe('raw HTTP inputs that once left the error shape (exact regressions)', () => {
  async function only(raw: string): Promise<RawResponse> {
    const bytes = Buffer.from(raw, 'latin1');
    const received = await exchange(bytes);
    checkExchange(bytes, received);
    const [first] = parseResponses(received);
    return first!;
  }

  it("a malformed request line gets the one error body (was Fastify's own)", async () => {
    expect((await only('GET\r\n\r\n')).status).toBe(400);
    expect((await only('G\x00T / HTTP/1.1\r\nhost: x\r\n\r\n')).status).toBe(400);
  });

  it("headers over 16 KiB get 431 with the one error body (was Fastify's own)", async () => {
    expect(
      (await only(`GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: ${'b'.repeat(20_000)}\r\n\r\n`)).status,
    ).toBe(431);
  });

  it('an Expect other than 100-continue gets 417 with the one error body (was empty)', async () => {
    expect((await only('GET /healthz HTTP/1.1\r\nhost: x\r\nexpect: nope\r\n\r\n')).status).toBe(417);
  });

  it('an HTTP/1.1 request without Host gets 400 with the one error body (was an empty 400)', async () => {
    expect((await only('GET /healthz HTTP/1.1\r\n\r\n')).status).toBe(400);
  });

  it('a malformed %-escape gets x-request-id too (it had the body, not the header)', async () => {
    expect((await only('GET /api/v1/runs/% HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')).status).toBe(
      400,
    );
  });

  it('a JSON body that is not UTF-8 is refused with 400 (was accepted with U+FFFD)', async () => {
    const body = Buffer.from([
      0x7b, 0x22, 0x75, 0x72, 0x6c, 0x73, 0x22, 0x3a, 0x5b, 0x22, 0xff, 0x22, 0x5d, 0x7d,
    ]);
    const head = `POST /api/v1/crawl HTTP/1.1\r\nhost: x\r\nx-api-key: ${server.apiKey}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`;
    const answer = await only(Buffer.concat([Buffer.from(head), body]).toString('latin1'));
    expect(answer.status).toBe(400);
    expect(answer.body.toString()).toMatch(/UTF-8/);
  });
});

describe('slow requests are cut off, not held forever', () => {
  function expect408(received: Buffer, what: string): void {
    checkExchange(Buffer.from(what), received);
    expect(parseResponses(received)[0]!.status, what).toBe(408);
  }

  it('headers that stop arriving get 408 in the one error shape', async () => {
    expect408(await dribble(['GET /healthz HTTP/1.1\r\n', 'host: x\r\n'], 100), 'stalled headers');
  });

  it('a body that stops arriving, or trickles a byte at a time, gets 408 in the one error shape', async () => {
    const head = `POST /api/v1/crawl HTTP/1.1\r\nhost: x\r\nx-api-key: ${server.apiKey}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n`;
    expect408(await dribble([head, '{"urls":'], 50), 'stalled body');
    expect408(
      await dribble([head, ...'{"urls":["https://example.invalid/"]}'.split('')], 300),
      'trickled body',
    );
  });
});
