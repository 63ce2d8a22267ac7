import { createServer } from 'node:net';
import { ERROR_STATUS, type RunLenient } from '@webdata/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createClient } from './client.js';
import {
  AbortError,
  ApiError,
  CLIENT_ERROR_CODES,
  type ClientErrorCode,
  ConnectionError,
  errorFromResponse,
  NotFoundError,
  RequestValidationError,
  ResponseValidationError,
  ResultDataError,
  RunFailedError,
  RunNotFinishedError,
  RunTimeoutError,
  ServiceUnavailableError,
  TimeoutError,
  WebDataError,
} from './errors.js';

const run: RunLenient = {
  id: 'run_1',
  status: 'failed',
  type: 'crawl',
  urls: [],
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  started_at: null,
  finished_at: null,
  params: {},
  stats: { total: 1, queued: 0, running: 0, succeeded: 0, failed: 1, cancelled: 0 },
  error: { code: 'all_items_failed', message: 'every page failed' },
};

describe('createClient', () => {
  it('names the base URL it refuses and what one looks like (it threw "Invalid URL" for 127.0.0.1:8787)', () => {
    for (const baseUrl of ['127.0.0.1:8787', 'localhost:8787', 'ftp://127.0.0.1/', '']) {
      expect(() => createClient({ baseUrl, apiKey: 'wd_key' }), baseUrl).toThrow(
        new TypeError(
          `createClient: baseUrl must be an absolute http or https URL, such as http://127.0.0.1:8787 (got ${JSON.stringify(baseUrl)})`,
        ),
      );
    }
    expect(createClient({ baseUrl: 'http://127.0.0.1:8787/api/v1/', apiKey: 'wd_key' }).baseUrl).toBe(
      'http://127.0.0.1:8787/api/v1',
    );
  });
});

describe('error codes', () => {
  it('lists the client codes, each documented (changing one is a breaking change)', () => {
    expect(Object.keys(CLIENT_ERROR_CODES)).toEqual([
      'connection_failed',
      'timeout',
      'aborted',
      'invalid_response',
      'invalid_request',
      'run_failed',
      'run_not_finished',
      'run_timeout',
      'invalid_result_data',
      'stream_ended',
      'internal',
    ]);
    for (const description of Object.values(CLIENT_ERROR_CODES))
      expect(description.length).toBeGreaterThan(20);
  });

  it('gives every error class of the client its own stable code', () => {
    const issue = z.string().safeParse(1).error!.issues;
    const cases: [WebDataError, ClientErrorCode][] = [
      [new ConnectionError('refused', { systemCode: 'ECONNREFUSED' }), 'connection_failed'],
      [new TimeoutError('slow'), 'timeout'],
      [new AbortError('stopped'), 'aborted'],
      [new ResponseValidationError('bad body', { status: 200, issues: issue }), 'invalid_response'],
      [new RequestValidationError('bad request', issue), 'invalid_request'],
      [new RunFailedError(run), 'run_failed'],
      [new RunNotFinishedError({ ...run, status: 'running' }), 'run_not_finished'],
      [new RunTimeoutError('run_1', 1_000), 'run_timeout'],
      [new ResultDataError('res_1', issue), 'invalid_result_data'],
      [new WebDataError('the run stream ended without a run', { code: 'stream_ended' }), 'stream_ended'],
      [new WebDataError('a bug'), 'internal'],
    ];
    for (const [error, code] of cases) {
      expect(error.code, error.name).toBe(code);
      expect(Object.keys(CLIENT_ERROR_CODES)).toContain(error.code);
    }
    // The class's code is in its type, so a check on it narrows nothing away by mistake.
    expectTypeOf(new RunFailedError(run).code).toEqualTypeOf<'run_failed'>();
    expectTypeOf(new ConnectionError('x').code).toEqualTypeOf<'connection_failed'>();
  });

  it("uses the server's code where the server has one: invalid_request, and every ApiError's body code", () => {
    expect(ERROR_STATUS[new RequestValidationError('x', []).code]).toBe(400);
    const notFound = errorFromResponse({
      status: 404,
      body: { error: { code: 'not_found', message: 'no run' } },
    });
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound.code).toBe('not_found');
    const unavailable = errorFromResponse({ status: 503, body: 'Service Unavailable' });
    expect(unavailable).toBeInstanceOf(ServiceUnavailableError);
    expect(unavailable.code).toBe('unavailable'); // the contract's code for the status, when the body has none
    expect(errorFromResponse({ status: 418, body: '' }).code).toBe('http_418');
    const foreign = errorFromResponse({ status: 400, body: { error: { code: 'quota_low' } } });
    expect(foreign).toBeInstanceOf(ApiError);
    expect(foreign.code).toBe('quota_low');
  });

  it('reads a refused connection as connection_failed, with the system code beside it', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'wd_codes',
      retry: { maxRetries: 0 },
    });
    try {
      const error = await client.runs.get('run_1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ code: 'connection_failed', systemCode: 'ECONNREFUSED' });
      const invalid = await client.runs
        .start({ type: 'crawl', urls: ['ftp://x'] } as never)
        .catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(RequestValidationError);
      expect(invalid).toMatchObject({ code: 'invalid_request' });
      // Named as the server's 400 names it: the first issue's path, its message, and how many more.
      const crawl = await client.runs
        .start({ type: 'crawl', urls: ['ftp://x', 'y'] })
        .catch((e: unknown) => e);
      expect((crawl as Error).message).toBe(
        'invalid crawl request: urls.0: must be an absolute http or https URL (and 1 more)',
      );
      const extract = await client.runs
        .start({ type: 'extract', urls: ['https://example.org/'] } as never)
        .catch((e: unknown) => e);
      expect((extract as Error).message).toBe(
        'invalid extract request: schema: give a query, a schema or both',
      );
      // A page size the server would refuse as `limit` is refused here under the caller's name for it.
      const pages = await client.runs
        .results('run_1', { pageSize: 500 })
        .toArray()
        .catch((e: unknown) => e);
      expect(pages).toMatchObject({
        code: 'invalid_request',
        message: 'invalid results request: pageSize: Too big: expected number to be <=200',
      });
      const runs = await client.runs
        .listAll({ pageSize: 0 })
        .toArray()
        .catch((e: unknown) => e);
      expect(runs).toMatchObject({
        code: 'invalid_request',
        message: 'invalid runs request: pageSize: Too small: expected number to be >=1',
      });
      const hits = await client
        .searchAll({ query: 'lamps', pageSize: 101 })
        .toArray()
        .catch((e: unknown) => e);
      expect(hits).toMatchObject({
        code: 'invalid_request',
        message: 'invalid search request: pageSize: Too big: expected number to be <=100',
      });
      const search = await client.search({ query: ' ' }).catch((e: unknown) => e);
      expect(search).toMatchObject({
        code: 'invalid_request',
        message: 'invalid search request: query: query must not be empty',
      });
    } finally {
      await client.close();
    }
  });
});
