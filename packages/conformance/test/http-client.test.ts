import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, retryAfterMs } from '../src/http-client.js';

// The suite's own client, against a stub that rate-limits: the rules are checked against a
// server's production rate limit, so a 429 is waited out rather than failing the rule under test.
let url = '';
let limitedLeft = 0;
const stub = createServer((_request, response) => {
  if (limitedLeft-- > 0) {
    response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
    response.end('{"error":{"code":"rate_limited","message":"slow down","request_id":"r"}}');
  } else {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
  }
});

beforeAll(async () => {
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => stub.close(() => resolve()));
});

describe('the suite’s HTTP client', () => {
  it('waits out a 429 as its Retry-After says and sends the request again', async () => {
    const waits: number[] = [];
    const call = apiClient(url, 'key', { sleep: async (ms) => void waits.push(ms) });
    limitedLeft = 2;
    const response = await call('GET', '/api/v1/runs');
    expect(response.status).toBe(200);
    expect(waits).toEqual([2000, 2000]);
  });

  it('hands the 429 over when told not to retry (the rate-limit rule itself)', async () => {
    const call = apiClient(url, 'key', { retryRateLimited: false });
    limitedLeft = 1;
    const response = await call('GET', '/api/v1/runs');
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('2');
  });

  it('reads Retry-After as seconds, 1 s when missing or unreadable, at most 10 s', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(undefined)).toBe(1000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT')).toBe(1000);
    expect(retryAfterMs('120')).toBe(10_000);
  });
});
