import { inspect } from 'node:util';
import { firstValueFrom, lastValueFrom, type Observable, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  AbortError,
  ApiError,
  AuthenticationError,
  type ClientOptions,
  ConflictError,
  ConnectionError,
  collectRun,
  createClient,
  InternalServerError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  type RunEvent,
  RunFailedError,
  RunNotFinishedError,
  RunTimeoutError,
  ServiceUnavailableError,
  TimeoutError,
  WebDataError,
} from '../src/index.js';
import {
  type Answer,
  type ForeignServer,
  foreignRun,
  type SeenRequest,
  startForeignServer,
} from './foreign-server.js';

const API_KEY = 'sk_foreign_secret_0123456789';
let server: ForeignServer | undefined;
const clients: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server?.close();
  server = undefined;
});

async function setup(
  handler: (request: SeenRequest) => Answer | Promise<Answer>,
  options: Partial<ClientOptions> = {},
) {
  server = await startForeignServer(handler);
  const client = createClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 2_000 },
    poll: { initialMs: 10, maxMs: 40, longPollSeconds: 1 },
    ...options,
  });
  clients.push(client);
  return { server, client };
}

const notFound: Answer = { status: 404, body: { error: { code: 'not_found', message: 'no such route' } } };

describe('against a foreign-shaped server', () => {
  it('reads extra fields and an unknown status, dedupes unchanged snapshots, learns that ?wait is not honoured', async () => {
    const statuses = ['queued', 'warming-up', 'warming-up', 'running', 'running', 'running', 'completed'];
    let polls = 0;
    const { server, client } = await setup((req) => {
      if (req.method === 'POST' && req.path === '/api/v1/extract') {
        return { status: 201, body: foreignRun('run_f1', 'queued') };
      }
      if (req.path === '/api/v1/runs/run_f1') {
        const status = statuses[Math.min(polls++, statuses.length - 1)]!;
        return {
          status: 200,
          body: foreignRun('run_f1', status, { progress_pct: status === 'completed' ? 100 : 10 }),
        };
      }
      if (req.path === '/api/v1/runs/run_f1/results') {
        if (!req.query.get('cursor')) {
          return {
            status: 200,
            body: {
              data: [{ id: 'r1', url: 'https://example.org/a', data: { title: 'A' }, vendor: 1 }],
              next_cursor: 'p2',
              total: 2,
            },
          };
        }
        return { status: 200, body: { data: [{ id: 'r2', data: { title: 'B' } }] } }; // no next_cursor at all
      }
      return notFound;
    });
    const events = await lastValueFrom(
      client.extract({ urls: ['https://example.org/'], query: 'the title' }).pipe(toArray()),
    );
    expect(
      events.map((e) => (e.type === 'status' || e.type === 'created' ? `${e.type}:${e.run.status}` : e.type)),
    ).toEqual([
      'created:queued',
      'status:warming-up',
      'status:running',
      'status:completed',
      'result',
      'result',
      'completed',
    ]);
    const firstResult = events.find((e) => e.type === 'result') as Extract<RunEvent, { type: 'result' }>;
    expect(firstResult.result.vendor).toBe(1); // unknown fields kept
    expect((events[0] as Extract<RunEvent, { type: 'created' }>).run.vendor_region).toBe('eu-1');
    const gets = server.seen('/api/v1/runs/run_f1', 'GET').filter((r) => !r.path.includes('/results'));
    expect(gets[0]!.query.has('wait')).toBe(false); // the first read is plain
    expect(gets[1]!.query.get('wait')).toBe('1');
    expect(gets.slice(2).every((r) => !r.query.has('wait'))).toBe(true);
    expect(client.capabilities.longPoll).toBe(false);
  });

  it('honours Retry-After on a 429, then succeeds; gives up with RateLimitError when it persists', async () => {
    let calls = 0;
    const { server, client } = await setup(
      (req) => {
        if (req.path === '/api/v1/runs/run_a') {
          calls++;
          if (calls === 1)
            return {
              status: 429,
              headers: { 'retry-after': '1' },
              body: { error: { code: 'rate_limited', message: 'slow down' } },
            };
          return { status: 200, body: foreignRun('run_a', 'running') };
        }
        return { status: 429, headers: { 'retry-after': '0' }, raw: 'Too Many Requests' };
      },
      { retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 2_000, rateLimitRetries: 2 } },
    );
    const started = Date.now();
    const run = await client.runs.get('run_a');
    expect(run.status).toBe('running');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(calls).toBe(2);

    const error = await client.runs.get('run_b').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterMs: 0 });
    expect(server.seen('/api/v1/runs/run_b')).toHaveLength(3); // 1 + 2 retries
  });

  it('retries a 503 and maps a persistent one to ServiceUnavailableError with the request id', async () => {
    let calls = 0;
    const { server, client } = await setup((req) => {
      if (req.path === '/api/v1/runs/run_ok') {
        return ++calls < 3
          ? { status: 503, body: { error: { code: 'unavailable', message: 'restarting' } } }
          : { status: 200, body: foreignRun('run_ok', 'completed') };
      }
      return {
        status: 503,
        headers: { 'x-request-id': 'req_from_header' },
        body: { error: { code: 'unavailable', message: 'overloaded', request_id: 'req_42', hint: 'later' } },
      };
    });
    expect((await client.runs.get('run_ok')).status).toBe('completed');
    const error = await client.runs.get('run_down').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(WebDataError);
    expect(error).toMatchObject({ status: 503, code: 'unavailable', requestId: 'req_42' });
    expect((error as Error).message).toContain('req_42');
    expect(server.seen('/api/v1/runs/run_down')).toHaveLength(3);
  });

  it('retries a GET on a dropped connection, but not a cancel', async () => {
    let gets = 0;
    const { server, client } = await setup((req) => {
      if (req.method === 'GET')
        return ++gets === 1 ? { drop: true } : { status: 200, body: foreignRun('run_d', 'running') };
      return { drop: true };
    });
    expect((await client.runs.get('run_d')).status).toBe('running');
    expect(gets).toBe(2);
    const error = await client.runs.cancel('run_d').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.seen('/api/v1/runs/run_d/cancel')).toHaveLength(1);
  });

  it('reports a malformed body and a body missing required fields as ResponseValidationError', async () => {
    const { client } = await setup((req) => {
      if (req.path === '/api/v1/runs/bad_json')
        return {
          status: 200,
          raw: '{"id": "run_x", "status": ',
          headers: { 'content-type': 'application/json' },
        };
      return { status: 200, body: { status: 'running', type: 'crawl' } };
    });
    const malformed = await client.runs.get('bad_json').catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(ResponseValidationError);
    expect((malformed as Error).message).toMatch(/not JSON/);
    const missing = (await client.runs.get('no_id').catch((e: unknown) => e)) as ResponseValidationError;
    expect(missing).toBeInstanceOf(ResponseValidationError);
    expect(missing.issues.map((i) => i.path.join('.'))).toContain('id');
  });

  it('sends an Idempotency-Key on creation and reuses it when the creation is retried', async () => {
    let posts = 0;
    const { server, client } = await setup((req) => {
      if (req.method === 'POST') {
        return ++posts === 1 ? { drop: true } : { status: 202, body: foreignRun('run_i', 'completed') };
      }
      if (req.path.endsWith('/results')) return { status: 200, body: { data: [], next_cursor: null } };
      return { status: 200, body: foreignRun('run_i', 'completed') };
    });
    const outcome = await collectRun(client.crawl({ urls: ['https://example.org/'] }));
    expect(outcome.run.status).toBe('completed');
    const creations = server.seen('/api/v1/crawl', 'POST');
    expect(creations).toHaveLength(2);
    const key = creations[0]!.headers['idempotency-key'];
    expect(key).toMatch(/^wdc_/);
    expect(creations[1]!.headers['idempotency-key']).toBe(key);
    expect(creations[0]!.headers['x-api-key']).toBe(API_KEY);
  });

  it('never shows the API key: not in errors (even when the server echoes it), logs, toString, inspect or JSON', async () => {
    const lines: string[] = [];
    const { client } = await setup(
      (req) => ({
        status: req.path.includes('flaky') ? 500 : 401,
        body: {
          error: {
            code: 'unauthorized',
            message: `unknown key ${String(req.headers['x-api-key'])}`,
            details: [{ key: req.headers['x-api-key'] }],
          },
        },
      }),
      {
        logger: {
          debug: (m, f) => lines.push(`${m} ${JSON.stringify(f)}`),
          warn: (m, f) => lines.push(`${m} ${JSON.stringify(f)}`),
        },
      },
    );
    const error = (await client.runs.get('run_k').catch((e: unknown) => e)) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain('[redacted]');
    await client.runs.get('flaky').catch(() => undefined);
    expect(lines.length).toBeGreaterThan(0);
    const everything = [
      error.message,
      error.stack ?? '',
      inspect(error, { depth: 10 }),
      JSON.stringify(error.body),
      JSON.stringify(error.details),
      String(client),
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      ...lines,
    ].join('\n');
    expect(everything).not.toContain(API_KEY);
  });

  it('aborts a hanging call through its AbortSignal, and times out without one', async () => {
    const { client } = await setup(() => ({ hang: true }), { timeoutMs: 300, retry: { maxRetries: 0 } });
    const controller = new AbortController();
    const pending = client.runs.get('run_h', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    await expect(client.runs.list()).rejects.toBeInstanceOf(TimeoutError);
  });

  it("tells a caller's time-out from its abort: TimeoutError for AbortSignal.timeout(), the reason as cause", async () => {
    const { client } = await setup(() => ({ hang: true }), { timeoutMs: 5_000, retry: { maxRetries: 0 } });
    const timedOut = await client.runs
      .get('run_h', { signal: AbortSignal.timeout(50) })
      .catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect((timedOut as TimeoutError).cause).toMatchObject({ name: 'TimeoutError' });
    const controller = new AbortController();
    const pending = collectRun(
      client.crawl({ urls: ['https://example.org/'] }, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort('user closed the page'), 50);
    const aborted = await pending.catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(AbortError);
    expect((aborted as AbortError).cause).toBe('user closed the page');
  });

  it('errors a failed run with RunFailedError carrying the run', async () => {
    let polls = 0;
    const { client } = await setup((req) => {
      if (req.method === 'POST') return { status: 202, body: foreignRun('run_x', 'queued') };
      return {
        status: 200,
        body: foreignRun('run_x', ++polls < 2 ? 'running' : 'failed', {
          error: { code: 'all_pages_failed', message: 'nothing fetched' },
        }),
      };
    });
    const error = (await collectRun(client.extract({ urls: ['https://example.org/'], query: 'q' })).catch(
      (e: unknown) => e,
    )) as RunFailedError;
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error.run).toMatchObject({ id: 'run_x', status: 'failed' });
    expect(error.message).toContain('all_pages_failed');
  });

  it('errors with RunTimeoutError at the deadline; unsubscribing stops polling without cancelling', async () => {
    const { server, client } = await setup((req) => {
      if (req.method === 'POST' && req.path.endsWith('/cancel'))
        return { status: 200, body: foreignRun('run_t', 'cancelled') };
      if (req.method === 'POST') return { status: 202, body: foreignRun('run_t', 'queued') };
      return { status: 200, body: foreignRun('run_t', 'running') };
    });
    const error = (await collectRun(
      // 1 s, not less: the error carries the last snapshot, and on a loaded machine a
      // shorter deadline can end before the first poll answers (the run is then 'queued').
      client.crawl({ urls: ['https://example.org/'] }, { deadlineMs: 1_000 }),
    ).catch((e: unknown) => e)) as RunTimeoutError;
    expect(error).toBeInstanceOf(RunTimeoutError);
    expect(error.runId).toBe('run_t');
    expect(error.run?.status).toBe('running');
    // A poll sent just before the deadline may reach the server just after it (seen once under
    // load): one more is allowed, then none, while polling would add one every 40 ms at most.
    const pollsAtDeadline = server.seen('/api/v1/runs/run_t', 'GET').length;
    await new Promise((r) => setTimeout(r, 150));
    const pollsSettled = server.seen('/api/v1/runs/run_t', 'GET').length;
    expect(pollsSettled - pollsAtDeadline).toBeLessThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 150));
    expect(server.seen('/api/v1/runs/run_t', 'GET').length).toBe(pollsSettled);
    expect(server.seen('/api/v1/runs/run_t/cancel')).toHaveLength(0);
    expect(client.activeWatches).toBe(0);

    const subscription = client
      .crawl({ urls: ['https://example.org/'] }, { cancelOnUnsubscribe: true })
      .subscribe();
    await new Promise((r) => setTimeout(r, 100));
    subscription.unsubscribe();
    await new Promise((r) => setTimeout(r, 100));
    expect(server.seen('/api/v1/runs/run_t/cancel', 'POST')).toHaveLength(1);
  });

  it('with cancelOnUnsubscribe, cancels the run whose creation was still unanswered when the stream ended', async () => {
    // The server makes the run when the POST arrives and answers late: the client gave up waiting
    // (Ctrl-C, an abort right after starting), but the run exists and would run to its end.
    let made: string | undefined;
    const { server, client } = await setup(async (req) => {
      if (req.method === 'POST' && req.path.endsWith('/cancel'))
        return { status: 200, body: foreignRun('run_late', 'cancelled') };
      if (req.method === 'POST') {
        const key = req.headers['idempotency-key'] as string;
        if (made === undefined) {
          made = key;
          await new Promise((r) => setTimeout(r, 300));
        }
        // Its replay (same key) answers the same run at once; another key would be another run.
        return { status: 202, body: foreignRun(key === made ? 'run_late' : 'run_other', 'queued') };
      }
      return { status: 200, body: foreignRun('run_late', 'running') };
    });
    const controller = new AbortController();
    const outcome = collectRun(
      client.crawl(
        { urls: ['https://example.org/'] },
        { cancelOnUnsubscribe: true, signal: controller.signal },
      ),
    ).catch((e: unknown) => e);
    await vi.waitFor(() => expect(server.seen('/api/v1/crawl', 'POST')).toHaveLength(1));
    controller.abort();
    expect(await outcome).toBeInstanceOf(AbortError);
    await vi.waitFor(() => expect(server.seen('/api/v1/runs/run_late/cancel', 'POST')).toHaveLength(1), {
      timeout: 2_000,
    });
    const creations = server.seen('/api/v1/crawl', 'POST');
    expect(creations.map((r) => r.headers['idempotency-key'])).toEqual([made, made]);
    expect(server.seen('/api/v1/runs/run_other')).toHaveLength(0);
  });

  it('a crawl asked for the content of a format it would not store asks the server to store it too', async () => {
    const { server, client } = await setup((req) => {
      if (req.method === 'POST') return { status: 202, body: foreignRun('run_f', 'completed') };
      if (req.path.endsWith('/results')) return { status: 200, body: { data: [], next_cursor: null } };
      return { status: 200, body: foreignRun('run_f', 'completed') };
    });
    const formatsSent = async (run$: Observable<RunEvent>) => {
      const before = server.requests.filter((r) => r.method === 'POST').length;
      await collectRun(run$);
      return (server.requests.filter((r) => r.method === 'POST')[before]!.body as { formats?: string[] })
        .formats;
    };
    const url = 'https://example.org/';
    // Without it every page's content came back null: the run stored only Markdown (the default).
    expect(await formatsSent(client.crawl({ urls: [url] }, { content: 'html' }))).toEqual([
      'markdown',
      'html',
    ]);
    expect(await formatsSent(client.crawl({ url, formats: ['text'] }, { content: 'links' }))).toEqual([
      'text',
      'links',
    ]);
    expect(await formatsSent(client.deepCrawl({ url }, { content: 'text' }))).toEqual(['markdown', 'text']);
    expect(
      await formatsSent(client.runs.create({ type: 'crawl', urls: [url] }, { content: 'html' })),
    ).toEqual(['markdown', 'html']);
    // A format it stores, the run's own ('default'), or none: the request as written.
    expect(await formatsSent(client.crawl({ urls: [url], formats: ['html'] }, { content: 'html' }))).toEqual([
      'html',
    ]);
    expect(await formatsSent(client.crawl({ urls: [url] }, { content: 'markdown' }))).toBeUndefined();
    expect(await formatsSent(client.crawl({ urls: [url] }, { content: 'default' }))).toBeUndefined();
    expect(await formatsSent(client.crawl({ urls: [url] }))).toBeUndefined();
  });

  it('with cancelOnUnsubscribe, sends no creation again when the creation was refused', async () => {
    const { server, client } = await setup((req) => {
      if (req.method === 'POST')
        return { status: 400, body: { error: { code: 'invalid_request', message: 'no' } } };
      return notFound;
    });
    const error = await collectRun(
      client.crawl({ urls: ['https://example.org/'] }, { cancelOnUnsubscribe: true }),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
    await new Promise((r) => setTimeout(r, 100));
    expect(server.requests).toHaveLength(1);
  });

  it('parses typed extraction data with the zod schema and reports data that does not parse', async () => {
    const { server, client } = await setup((req) => {
      if (req.method === 'POST') return { status: 202, body: foreignRun('run_z', 'completed') };
      if (req.path.endsWith('/results')) {
        return {
          status: 200,
          body: {
            data: [
              { id: 'r_ok', status: 'succeeded', data: { name: 'Lamp', price: 19.5 } },
              { id: 'r_bad', status: 'succeeded', data: { name: 'Chair', price: 'cheap' } },
              { id: 'r_failed', status: 'failed', data: null },
            ],
            next_cursor: null,
          },
        };
      }
      return { status: 200, body: foreignRun('run_z', 'completed') };
    });
    const Product = z.object({ name: z.string(), price: z.number() });
    const outcome = await collectRun(client.extract({ urls: ['https://shop.example/'], schema: Product }));
    const sent = server.seen('/api/v1/extract')[0]!.body as { schema: Record<string, unknown> };
    expect(sent.schema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' }, price: { type: 'number' } },
      required: ['name', 'price'],
    });
    expect(sent.schema.$schema).toBeUndefined();
    const price: number | undefined = outcome.results[0]?.data?.price;
    expect(price).toBe(19.5);
    expect(outcome.results.map((r) => r.id)).toEqual(['r_ok', 'r_failed']);
    expect(outcome.invalidResults).toHaveLength(1);
    expect(outcome.invalidResults[0]!.error.resultId).toBe('r_bad');
    expect(outcome.invalidResults[0]!.error.issues[0]!.path).toEqual(['price']);
  });

  it('ends a cancelled run without results unless asked to read them', async () => {
    const { server, client } = await setup((req) => {
      if (req.path.endsWith('/results'))
        return { status: 200, body: { data: [{ id: 'r_done' }], next_cursor: null } };
      return { status: 200, body: foreignRun('run_c', 'cancelled') };
    });
    const plain = await collectRun(client.runs.follow('run_c'));
    expect(plain.run.status).toBe('cancelled');
    expect(plain.results).toEqual([]);
    expect(server.seen('/api/v1/runs/run_c/results')).toHaveLength(0);
    const partial = await collectRun(client.runs.follow('run_c', { includeCancelledResults: true }));
    expect(partial.results.map((r) => r.id)).toEqual(['r_done']);
  });

  it('uses If-None-Match and treats 304 as unchanged', async () => {
    let polls = 0;
    const { server, client } = await setup((req) => {
      polls++;
      const status = polls < 4 ? 'running' : 'completed';
      if (polls > 1 && polls < 4 && req.headers['if-none-match'] === '"v1"')
        return { status: 304, headers: { etag: '"v1"' } };
      return {
        status: 200,
        headers: { etag: polls < 4 ? '"v1"' : '"v2"' },
        body: foreignRun('run_e', status),
      };
    });
    const snapshots = await lastValueFrom(client.runs.watch('run_e').pipe(toArray()));
    expect(snapshots.map((r) => r.status)).toEqual(['running', 'completed']);
    expect(server.seen('/api/v1/runs/run_e')[1]!.headers['if-none-match']).toBe('"v1"');
  });

  it('shares one poller among subscribers to the same run', async () => {
    let polls = 0;
    const { server, client } = await setup(() => ({
      status: 200,
      body: foreignRun('run_s', ++polls < 5 ? 'running' : 'completed', { stats: { succeeded: polls } }),
    }));
    const view = lastValueFrom(client.runs.watch('run_s').pipe(toArray()));
    const bar = lastValueFrom(client.runs.watch('run_s').pipe(toArray()));
    const [a, b] = await Promise.all([view, bar]);
    expect(a).toEqual(b);
    expect(a.at(-1)!.status).toBe('completed');
    expect(server.requests).toHaveLength(5);
  });

  it('batches many runs into GET /runs?ids= and falls back to per-run polls when it is not supported', async () => {
    let round = 0;
    const { server, client } = await setup((req) => {
      if (req.path === '/api/v1/runs') {
        const ids = (req.query.get('ids') ?? '').split(',');
        round++;
        return {
          status: 200,
          body: {
            data: ids.map((id) => foreignRun(id, round < 3 ? 'running' : 'completed')),
            next_cursor: null,
          },
        };
      }
      return notFound;
    });
    const ids = Array.from({ length: 150 }, (_, i) => `run_${i}`);
    const snapshots = await lastValueFrom(client.runs.watchMany(ids).pipe(toArray()));
    expect(snapshots.filter((r) => r.status === 'completed')).toHaveLength(150);
    expect(snapshots).toHaveLength(300); // running + completed, once each
    expect(server.requests.every((r) => r.path === '/api/v1/runs')).toBe(true);
    expect(server.requests.map((r) => r.query.get('ids')!.split(',').length).slice(0, 2)).toEqual([100, 50]);
    expect(client.capabilities.batch).toBe(true);
    await server.close();

    const polls = new Map<string, number>();
    const { server: plain, client: other } = await setup((req) => {
      if (req.path === '/api/v1/runs')
        return {
          status: 400,
          body: { error: { code: 'invalid_request', message: 'unknown parameter ids' } },
        };
      const id = req.path.split('/').at(-1)!;
      polls.set(id, (polls.get(id) ?? 0) + 1);
      return { status: 200, body: foreignRun(id, (polls.get(id) ?? 0) < 2 ? 'running' : 'completed') };
    });
    const fallback = await lastValueFrom(other.runs.watchMany(['run_a', 'run_b']).pipe(toArray()));
    expect(
      fallback
        .filter((r) => r.status === 'completed')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['run_a', 'run_b']);
    expect(other.capabilities.batch).toBe(false);
    await firstValueFrom(other.runs.watchMany(['run_c', 'run_d']).pipe(take(1)));
    expect(plain.seen('/api/v1/runs', 'GET').filter((r) => r.path === '/api/v1/runs')).toHaveLength(1);
  });

  it('maps a 409 to ConflictError and reads results lazily across pages', async () => {
    const { server, client } = await setup((req) => {
      if (req.path.endsWith('/cancel'))
        return { status: 409, body: { error: { code: 'conflict', message: 'run is completed' } } };
      if (req.path === '/api/v1/runs/run_c') return { status: 200, body: foreignRun('run_c', 'completed') };
      const cursor = Number(req.query.get('cursor') ?? '0');
      return {
        status: 200,
        body: {
          data: [{ id: `r${cursor}` }, { id: `r${cursor + 1}` }],
          next_cursor: cursor < 8 ? String(cursor + 2) : null,
        },
      };
    });
    await expect(client.runs.cancel('run_c')).rejects.toBeInstanceOf(ConflictError);
    const firstThree: string[] = [];
    for await (const result of client.runs.results('run_c', { pageSize: 2 })) {
      firstThree.push(result.id);
      if (firstThree.length === 3) break;
    }
    expect(firstThree).toEqual(['r0', 'r1', 'r2']);
    expect(server.seen('/api/v1/runs/run_c/results')).toHaveLength(2);
    const all = await lastValueFrom(client.runs.results('run_c', { pageSize: 2 }).pipe(toArray()));
    expect(all).toHaveLength(10);
    expect(server.seen('/api/v1/runs/run_c/results')[2]!.query.get('limit')).toBe('2');
  });

  it('fetches content one by one from a server that ignores include=content; a missing one is null', async () => {
    const { server, client } = await setup((req) => {
      if (req.path === '/api/v1/runs/run_m') return { status: 200, body: foreignRun('run_m', 'incomplete') };
      if (req.path === '/api/v1/runs/run_m/results') {
        return {
          status: 200,
          body: { data: [{ id: 'r1' }, { id: 'r2' }, { id: 'r3', status: 'failed' }], next_cursor: null },
        };
      }
      if (req.path === '/api/v1/runs/run_m/results/r1/content')
        return { status: 200, body: { id: 'r1', format: 'markdown', content: '# One' } };
      return notFound;
    });
    const results = await client.runs.results('run_m', { content: 'markdown' }).toArray();
    expect(results.map((r) => [r.id, r.content])).toEqual([
      ['r1', '# One'],
      ['r2', null],
      ['r3', null],
    ]);
    expect(server.seen('/api/v1/runs/run_m/results')[0]!.query.get('include')).toBe('content');
    expect(server.seen('/api/v1/runs/run_m/results/r3')).toHaveLength(0); // a failed result has none
  });

  it("reads a document's content leniently, with its ids encoded as one path segment each", async () => {
    const { server, client } = await setup((req) => {
      if (req.path === '/api/v1/collections/docs/documents/doc%2F1%3Fx')
        return { status: 200, body: { content: 'Plain words.', format: 'text', words: 2 } };
      return notFound;
    });
    const document = await client.collections.document('docs', 'doc/1?x', { format: 'text' });
    expect(document).toEqual({ content: 'Plain words.', format: 'text', words: 2 });
    expect(server.seen('/api/v1/collections/docs/documents/')[0]!.query.get('format')).toBe('text');
    await expect(client.collections.document('docs', 'doc_2')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('fetches a screenshot from its signed URL on another host without the API key or custom headers', async () => {
    const files = await startForeignServer((req) =>
      req.query.get('sig') === 'good'
        ? { status: 200, raw: 'PNGBYTES', headers: { 'content-type': 'image/png' } }
        : { status: 403, body: { error: { code: 'forbidden', message: 'signature expired' } } },
    );
    try {
      const { server, client } = await setup(
        (req) => ({
          status: 200,
          body: {
            url: `${files.url}/shots/${req.path.includes('/r_old/') ? 'old' : 'new'}.png?sig=${req.path.includes('/r_old/') ? 'stale' : 'good'}`,
            expires_at: '2026-01-01T00:15:00Z',
          },
        }),
        { headers: { authorization: 'Bearer proxy-secret' } },
      );
      const png = await client.runs.screenshotPng('run_p', 'r_new');
      expect(new TextDecoder().decode(png)).toBe('PNGBYTES');
      expect(server.requests[0]!.headers['x-api-key']).toBe(API_KEY);
      const fetched = files.requests[0]!;
      expect(fetched.path).toBe('/shots/new.png');
      expect(fetched.headers['x-api-key']).toBeUndefined();
      expect(fetched.headers.authorization).toBeUndefined();
      const expired = await client.runs.screenshotPng('run_p', 'r_old').catch((e: unknown) => e);
      expect(expired).toBeInstanceOf(PermissionDeniedError);
      expect(expired).toMatchObject({ status: 403, code: 'forbidden' });
    } finally {
      await files.close();
    }
  });

  it('refuses the results of a run still running, unless asked to read them', async () => {
    const { client } = await setup((req) => {
      if (req.path === '/api/v1/runs/run_r') return { status: 200, body: foreignRun('run_r', 'running') };
      return { status: 200, body: { data: [{ id: 'r1' }], next_cursor: null } };
    });
    await expect(client.runs.results('run_r').toArray()).rejects.toBeInstanceOf(RunNotFinishedError);
    expect(await client.runs.results('run_r', { unfinished: 'read' }).toArray()).toHaveLength(1);
  });
});
