import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

/** What one load run saw, per request kind and per run. */
export interface RunLoadFigures {
  seconds: number;
  clients: number;
  runsCreated: number;
  runsFinished: number;
  requests: number;
  /** Latency of creating and reading requests (long polls wait on purpose and are left out), ms. */
  p50Ms: number;
  p99Ms: number;
  /** From creation to the client seeing the run finished, ms. */
  runP50Ms: number;
  runP99Ms: number;
  /** Answers by status class: 5xx other than 503 (must be 0), and 503s (each with Retry-After?). */
  status5xx: number;
  status503: number;
  status503WithoutRetryAfter: number;
  /** Runs created (202) that never finished, or finished with a page missing: must be 0. */
  lost: number;
  /** Each lost run: its id, why it counts as lost and the last answer about it (to find the cause). */
  lostRuns: LostRun[];
  /** Results beyond one per page of a run: must be 0. */
  duplicated: number;
  /** Requests that failed without an HTTP answer (connection refused or reset). */
  transportErrors: number;
}

/** A run counted in {@link RunLoadFigures.lost}, with what the client last saw of it. */
export interface LostRun {
  runId: string;
  /** `gave up polling`, `poll answered <status>`, `results answered <status>`, `ended <status>` or `page missing`. */
  reason: string;
  /** The last run (or error) body the client read, and when its poll began relative to the start, s. */
  last: unknown;
  atSecond: number;
}

/** Options of {@link runLoad}. */
export interface RunLoadOptions {
  /** API base URLs; client `i` creates through `apis[i % n]` and reads through the next one. */
  apis: string[];
  apiKey: string;
  /** URLs of one run: each client's runs crawl these pages (two or three are plenty). */
  pages: (run: number) => string[];
  clients: number;
  seconds: number;
  /** After the time is up, how long runs in flight may take to finish before they count as lost. */
  drainSeconds?: number;
  /** Called once, `atSecond` seconds in (a PostgreSQL restart). */
  fault?: { atSecond: number; run: () => Promise<void> };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
}

/**
 * `clients` concurrent users, each in a loop for `seconds`: create a crawl
 * run (with an Idempotency-Key, retried on 503 after `Retry-After`),
 * long-poll it to the end with `If-None-Match` (through another API process
 * when there are several), then read its results and check that each page
 * is there exactly once. Bounded in time; talks only to the given URLs.
 */
export async function runLoad(options: RunLoadOptions): Promise<RunLoadFigures> {
  const latencies: number[] = [];
  const runLatencies: number[] = [];
  const figures = {
    runsCreated: 0,
    runsFinished: 0,
    requests: 0,
    status5xx: 0,
    status503: 0,
    status503WithoutRetryAfter: 0,
    lost: 0,
    lostRuns: [] as LostRun[],
    duplicated: 0,
    transportErrors: 0,
  };
  const started = performance.now();
  const stopCreatingAt = started + options.seconds * 1000;
  const giveUpAt = stopCreatingAt + (options.drainSeconds ?? 30) * 1000;
  let runCounter = 0;

  /** One request; 503s and lost connections are retried after a pause until `giveUpAt`. */
  async function call(
    base: string,
    method: 'GET' | 'POST',
    path: string,
    init: { body?: unknown; headers?: Record<string, string>; timed?: boolean } = {},
  ): Promise<{ status: number; headers: Record<string, unknown>; body: any } | null> {
    for (;;) {
      if (performance.now() > giveUpAt) return null;
      const t0 = performance.now();
      try {
        const response = await request(`${base}${path}`, {
          method,
          headers: {
            'x-api-key': options.apiKey,
            ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...init.headers,
          },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          headersTimeout: 60_000,
        });
        const text = await response.body.text();
        figures.requests++;
        if (init.timed !== false) latencies.push(performance.now() - t0);
        if (response.statusCode === 503) {
          figures.status503++;
          const retryAfter = Number(response.headers['retry-after']);
          if (!Number.isFinite(retryAfter)) figures.status503WithoutRetryAfter++;
          await sleep(Math.max(0.1, Number.isFinite(retryAfter) ? retryAfter : 1) * 1000);
          continue;
        }
        if (response.statusCode >= 500) figures.status5xx++;
        const body =
          text && String(response.headers['content-type']).includes('json') ? JSON.parse(text) : text;
        return { status: response.statusCode, headers: response.headers, body };
      } catch {
        // The API process itself is reachable here; a refused or cut connection is counted and retried.
        figures.transportErrors++;
        await sleep(200);
      }
    }
  }

  function lose(runId: string, reason: string, last: unknown): void {
    figures.lost++;
    figures.lostRuns.push({
      runId,
      reason,
      last,
      atSecond: Math.round((performance.now() - started) / 100) / 10,
    });
  }

  async function oneRun(client: number): Promise<void> {
    const run = runCounter++;
    const pages = options.pages(run);
    const creator = options.apis[client % options.apis.length]!;
    const reader = options.apis[(client + 1) % options.apis.length]!;
    const createdAt = performance.now();
    const created = await call(creator, 'POST', '/api/v1/crawl', {
      body: { urls: pages },
      headers: { 'idempotency-key': randomUUID() },
    });
    // No answer by the deadline, or a refusal (counted above when it is a 5xx): no run to follow.
    if (created === null || created.status !== 202) return;
    figures.runsCreated++;
    const runId = created.body.id as string;
    let etag = String(created.headers.etag ?? '');
    let status = created.body.status as string;
    let last: unknown = created.body;
    while (!['completed', 'incomplete', 'failed', 'cancelled'].includes(status)) {
      const polled = await call(reader, 'GET', `/api/v1/runs/${runId}?wait=10`, {
        headers: etag ? { 'if-none-match': etag } : {},
        timed: false,
      });
      if (polled === null) {
        lose(runId, 'gave up polling', last);
        return;
      }
      if (polled.status === 304) continue;
      if (polled.status !== 200) {
        lose(runId, `poll answered ${polled.status}`, polled.body);
        return;
      }
      etag = String(polled.headers.etag ?? '');
      status = polled.body.status;
      last = polled.body;
    }
    runLatencies.push(performance.now() - createdAt);
    const results = await call(creator, 'GET', `/api/v1/runs/${runId}/results?limit=50`);
    if (results === null || results.status !== 200) {
      lose(runId, `results answered ${results?.status ?? 'nothing'}`, results?.body ?? last);
      return;
    }
    const urls = (results.body.data as { url: string }[]).map((result) => result.url);
    const distinct = new Set(urls);
    figures.duplicated += urls.length - distinct.size;
    if (status !== 'completed') lose(runId, `ended ${status}`, { run: last, results: results.body.data });
    else if (pages.some((page) => !distinct.has(page)))
      lose(runId, 'page missing', { run: last, results: results.body.data });
    else figures.runsFinished++;
  }

  let faulted: Promise<void> | null = null;
  const faultTimer = options.fault
    ? setTimeout(() => {
        faulted = options.fault!.run();
      }, options.fault.atSecond * 1000)
    : null;
  await Promise.all(
    Array.from({ length: options.clients }, async (_, client) => {
      while (performance.now() < stopCreatingAt) await oneRun(client);
    }),
  );
  if (faultTimer) clearTimeout(faultTimer);
  await faulted;
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  runLatencies.sort((a, b) => a - b);
  return {
    seconds: Math.round(seconds * 10) / 10,
    clients: options.clients,
    ...figures,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    runP50Ms: percentile(runLatencies, 50),
    runP99Ms: percentile(runLatencies, 99),
  };
}
