import { LIMITS, type RunLenient } from '@webdata/contract';
import { from, lastValueFrom, merge, type Observable, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, NotFoundError } from '../errors.js';
import { DEFAULT_POLL_POLICY } from '../operators/pollAdaptive.js';
import type { HttpRequest, HttpResponse, Transport } from '../transport.js';
import type { ServerCapabilities } from './capabilities.js';
import { RunFeed, type RunFeedOptions } from './run-feed.js';

/**
 * The feed's loop in virtual time (vitest's fake timers): which requests it
 * sends, when, and what its watchers see. The transport is a stand-in that
 * answers `GET /runs` the way the server's change feed does (a store-wide
 * change counter, `ids` or key-wide, held long polls answered on the first
 * change, 304 when nothing changed), each answer `latencyMs` after the
 * request; the real server's side is tested in apps/server and end to end in
 * test/integration.test.ts.
 */
class ChangeFeedStandIn {
  readonly runs = new Map<string, { run: RunLenient; changedAt: number }>();
  /** Deleted runs, with the change number their deletion took (the server's tombstones). */
  readonly deleted = new Map<string, number>();
  readonly requests: { at: number; query: Record<string, unknown>; etag: string | undefined }[] = [];
  /** Whether list long polls are honoured (a server without them ignores `wait`). */
  longPolls = true;
  latencyMs = 5;
  /** Down (a restart): every request fails as a refused connection; held long polls break. */
  down = false;
  #counter = 0;
  #held = new Set<() => void>();

  add(id: string): void {
    this.#change({
      id,
      status: 'queued',
      type: 'crawl',
      urls: ['http://127.0.0.1/'],
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    });
  }

  set(id: string, status: string): void {
    const current = this.runs.get(id)!.run;
    this.#change({ ...current, status, updated_at: new Date(Date.now() + this.#counter).toISOString() });
  }

  remove(id: string): void {
    this.runs.delete(id);
    this.deleted.set(id, ++this.#counter);
    for (const wake of [...this.#held]) wake();
  }

  #change(run: RunLenient): void {
    this.runs.set(run.id, { run, changedAt: ++this.#counter });
    for (const wake of [...this.#held]) wake();
  }

  goDown(): void {
    this.down = true;
    for (const wake of [...this.#held]) wake();
  }

  get longPollCount(): number {
    return this.requests.filter((r) => r.query.wait !== undefined).length;
  }

  readonly transport = {
    logger: {},
    send$: (request: HttpRequest): Observable<HttpResponse> => {
      const etag = request.headers?.['if-none-match'];
      this.requests.push({ at: Date.now(), query: { ...request.query }, etag });
      return from(this.#answer(request.query ?? {}, etag));
    },
  } as unknown as Transport;

  async #answer(query: Record<string, unknown>, etag: string | undefined): Promise<HttpResponse> {
    await sleep(this.latencyMs);
    const refused = () =>
      new ConnectionError('GET /runs failed: ECONNREFUSED', { systemCode: 'ECONNREFUSED' });
    if (this.down) throw refused();
    const ids = typeof query.ids === 'string' ? query.ids.split(',') : undefined;
    const since = /^"c(\d+)"$/.exec(etag ?? '')?.[1];
    const wait = Number(query.wait ?? 0);
    const changed = () =>
      [...this.runs.values()]
        .filter((entry) => (ids ? ids.includes(entry.run.id) : true))
        .filter((entry) => since === undefined || entry.changedAt > Number(since))
        .sort((a, b) => a.changedAt - b.changedAt)
        .slice(0, Number(query.limit ?? LIMITS.maxPageSize));
    // With ids: those that name no run; key-wide: runs deleted since the position.
    const missing = () =>
      ids
        ? ids.filter((id) => !this.runs.has(id))
        : [...this.deleted].filter(([, at]) => since !== undefined && at > Number(since)).map(([id]) => id);
    const headers: Record<string, string> = {};
    if (wait > 0 && this.longPolls) {
      headers['x-webdata-wait'] = String(wait);
      if (changed().length === 0 && missing().length === 0) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            if (!this.down && changed().length === 0 && missing().length === 0) return;
            finish();
          };
          const finish = () => {
            clearTimeout(timer);
            this.#held.delete(wake);
            resolve();
          };
          const timer = setTimeout(finish, wait * 1000);
          this.#held.add(wake);
        });
      }
      if (this.down) throw refused();
      await sleep(this.latencyMs);
    }
    const runs = changed();
    // The position after the last change answered (a key-wide deletion is a change too).
    const deletions = ids ? [] : missing().map((id) => this.deleted.get(id)!);
    const cursor =
      since === undefined
        ? this.#counter
        : Math.max(Number(since), ...runs.map((entry) => entry.changedAt), ...deletions);
    headers.etag = `"c${cursor}"`;
    if (missing().length > 0) headers['x-webdata-missing'] = missing().join(',');
    if (since !== undefined && runs.length === 0 && missing().length === 0) {
      return { status: 304, headers, body: undefined, requestId: undefined };
    }
    return {
      status: 200,
      headers,
      body: { data: runs.map((entry) => entry.run), next_cursor: null },
      requestId: undefined,
    };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const OPTIONS: RunFeedOptions = {
  longPollSeconds: 20,
  minIntervalMs: 200,
  burst: 3,
  gatherMs: 100,
  policy: DEFAULT_POLL_POLICY,
  outageMs: 60_000,
};

function newFeed(server: ChangeFeedStandIn, options: Partial<RunFeedOptions> = {}) {
  const capabilities: ServerCapabilities = {
    longPoll: undefined,
    batch: undefined,
    batchLongPoll: undefined,
  };
  return { feed: new RunFeed(server.transport, capabilities, { ...OPTIONS, ...options }), capabilities };
}

/** Every snapshot a watcher saw, with when (virtual ms), and how its stream ended. */
function record(source: Observable<RunLenient>) {
  const seen: { id: string; status: string; at: number }[] = [];
  const outcome: { done: boolean; error: unknown } = { done: false, error: undefined };
  source.subscribe({
    next: (run) => seen.push({ id: run.id, status: run.status, at: Date.now() }),
    error: (error) => {
      outcome.error = error;
    },
    complete: () => {
      outcome.done = true;
    },
  });
  return { seen, outcome };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('RunFeed in virtual time', () => {
  it('reads runs watched together in one request, then long-polls from its position and answers on the first change', async () => {
    const server = new ChangeFeedStandIn();
    for (const id of ['run_a', 'run_b', 'run_c']) server.add(id);
    const { feed, capabilities } = newFeed(server);
    const watched = record(merge(...['run_a', 'run_b', 'run_c'].map((id) => feed.watch(id))));

    await vi.advanceTimersByTimeAsync(150);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({ at: 100, query: { ids: 'run_a,run_b,run_c', limit: 3 } });
    expect(server.requests[1]!.query).toMatchObject({ ids: 'run_a,run_b,run_c', wait: 20 });
    expect(server.requests[1]!.etag).toBe('"c3"');
    expect(watched.seen.map((s) => s.status)).toEqual(['queued', 'queued', 'queued']);

    await vi.advanceTimersByTimeAsync(1_000);
    server.set('run_b', 'completed');
    const changedAt = Date.now();
    await vi.advanceTimersByTimeAsync(50);
    expect(watched.seen.at(-1)).toEqual({ id: 'run_b', status: 'completed', at: changedAt + 5 });
    expect(capabilities.batchLongPoll).toBe(true);

    for (const id of ['run_a', 'run_c']) server.set(id, 'failed');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(watched.outcome).toEqual({ done: true, error: undefined });
    expect(feed.size).toBe(0);
  });

  it('under a storm of changes sends the next long poll at once while turns last, then one per minIntervalMs, and every change arrives', async () => {
    const server = new ChangeFeedStandIn();
    const ids = Array.from({ length: 50 }, (_, i) => `run_${i}`);
    for (const id of ids) server.add(id);
    const { feed } = newFeed(server);
    const watched = record(merge(...ids.map((id) => feed.watch(id))));
    await vi.advanceTimersByTimeAsync(5_000);
    const before = server.longPollCount;

    // A change every 20 ms for 5 s (250 changes: running, then completed), 50 a second.
    const changedAt = new Map<string, number>();
    for (let i = 0; i < 100; i++) {
      const id = ids[i % ids.length]!;
      server.set(id, i < ids.length ? 'running' : 'completed');
      changedAt.set(`${id} ${i < ids.length ? 'running' : 'completed'}`, Date.now());
      await vi.advanceTimersByTimeAsync(50);
    }
    await vi.advanceTimersByTimeAsync(1_000);

    expect(watched.outcome.done).toBe(true);
    const delays = watched.seen
      .filter((s) => s.status !== 'queued')
      .map((s) => s.at - changedAt.get(`${s.id} ${s.status}`)!);
    expect(delays).toHaveLength(100);
    // 5 s of changes: at most one long poll per 200 ms plus the three saved turns (and the one already held).
    const polls = server.longPollCount - before;
    expect(polls).toBeLessThanOrEqual(5_000 / 200 + 3 + 1);
    // No change waits longer than a turn plus two answers' travel; most wait much less.
    expect(Math.max(...delays)).toBeLessThanOrEqual(200 + 2 * 2 * server.latencyMs);
  });

  it('after a quiet spell answers a burst of changes without spacing, up to the saved turns', async () => {
    const server = new ChangeFeedStandIn();
    const ids = ['run_a', 'run_b', 'run_c', 'run_d', 'run_e'];
    for (const id of ids) server.add(id);
    const { feed } = newFeed(server, { burst: 3 });
    const watched = record(merge(...ids.map((id) => feed.watch(id))));
    await vi.advanceTimersByTimeAsync(30_000);

    // Five changes 30 ms apart, each answer back before the next change. The held poll answers the
    // first; three saved turns send the next three polls at once; the fifth poll waits for a turn.
    const start = Date.now();
    for (const id of ids) {
      server.set(id, 'completed');
      await vi.advanceTimersByTimeAsync(30);
    }
    await vi.advanceTimersByTimeAsync(1_000);
    const delays = watched.seen
      .filter((s) => s.status === 'completed')
      .map((s, i) => s.at - (start + i * 30));
    expect(delays.slice(0, 4)).toEqual([5, 5, 5, 5]);
    expect(delays[4]).toBeGreaterThan(5);
    expect(delays[4]).toBeLessThanOrEqual(200);
    expect(watched.outcome.done).toBe(true);
  });

  it('asks again at once when an answer is a full page', async () => {
    const server = new ChangeFeedStandIn();
    const ids = Array.from({ length: 150 }, (_, i) => `run_${String(i).padStart(3, '0')}`);
    for (const id of ids) server.add(id);
    const { feed } = newFeed(server, { minIntervalMs: 10_000, burst: 1 });
    const watched = record(merge(...ids.map((id) => feed.watch(id))));
    await vi.advanceTimersByTimeAsync(1_000);
    // More than 100 runs: the long poll covers every run of the key (no ids), a page at most.
    const longPoll = server.requests.find((r) => r.query.wait !== undefined)!;
    expect(longPoll.query.ids).toBeUndefined();
    expect(longPoll.query.limit).toBe(LIMITS.maxPageSize);

    for (const id of ids) server.set(id, 'completed');
    await vi.advanceTimersByTimeAsync(100);
    // 150 changes, 100 a page: two answers back to back although the spacing is 10 s.
    expect(watched.outcome.done).toBe(true);
    expect(watched.seen.filter((s) => s.status === 'completed')).toHaveLength(150);
  });

  it('fails only the watcher of a run that is gone', async () => {
    const server = new ChangeFeedStandIn();
    for (const id of ['run_a', 'run_b']) server.add(id);
    const { feed } = newFeed(server);
    const a = record(feed.watch('run_a'));
    const b = record(feed.watch('run_b'));
    const ghost = record(feed.watch('run_ghost'));
    await vi.advanceTimersByTimeAsync(500);
    expect(ghost.outcome.error).toBeInstanceOf(NotFoundError);

    server.remove('run_a');
    await vi.advanceTimersByTimeAsync(500);
    expect(a.outcome.error).toBeInstanceOf(NotFoundError);
    expect(b.outcome).toEqual({ done: false, error: undefined });

    server.set('run_b', 'completed');
    await vi.advanceTimersByTimeAsync(500);
    expect(b.outcome.done).toBe(true);
  });

  it('rides out a server that is down for a while (a restart), and errors once an outage outlasts outageMs', async () => {
    const server = new ChangeFeedStandIn();
    server.add('run_a');
    const { feed } = newFeed(server, { outageMs: 30_000 });
    const a = record(feed.watch('run_a'));
    await vi.advanceTimersByTimeAsync(500);
    server.goDown();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(a.outcome).toEqual({ done: false, error: undefined });
    // Tried again after 1, 2, 4, then every 5 s: not a request storm while down.
    const triesWhileDown = server.requests.filter((r) => r.at > 500).length;
    expect(triesWhileDown).toBeGreaterThanOrEqual(5);
    expect(triesWhileDown).toBeLessThanOrEqual(8);
    server.down = false;
    server.set('run_a', 'completed');
    await vi.advanceTimersByTimeAsync(6_000);
    expect(a.seen.map((s) => s.status)).toEqual(['queued', 'completed']);
    expect(a.outcome).toEqual({ done: true, error: undefined });

    server.add('run_b');
    const b = record(feed.watch('run_b'));
    await vi.advanceTimersByTimeAsync(500);
    server.goDown();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(b.outcome.error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(b.outcome.error).toBeInstanceOf(ConnectionError);
  });

  it('fails the watcher of a deleted run when watching key-wide (more runs than a request names)', async () => {
    const server = new ChangeFeedStandIn();
    const ids = Array.from({ length: 120 }, (_, i) => `run_${String(i).padStart(3, '0')}`);
    for (const id of ids) server.add(id);
    const { feed } = newFeed(server);
    const watchers = ids.map((id) => record(feed.watch(id)));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(server.requests.at(-1)!.query).toMatchObject({ wait: 20, ids: undefined });

    server.remove('run_007');
    await vi.advanceTimersByTimeAsync(100);
    expect(watchers[7]!.outcome.error).toBeInstanceOf(NotFoundError);
    expect(watchers.filter((w) => w.outcome.error !== undefined)).toHaveLength(1);
    expect(feed.size).toBe(119);
    // The deletion is answered once: the feed goes on holding polls, not re-reading it.
    const polls = server.longPollCount;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.longPollCount - polls).toBeLessThanOrEqual(1);
  });

  it('polls batches on the adaptive schedule when the server ignores wait on lists', async () => {
    const server = new ChangeFeedStandIn();
    server.longPolls = false;
    server.add('run_a');
    const { feed, capabilities } = newFeed(server);
    const watched = record(feed.watch('run_a'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(capabilities.batchLongPoll).toBe(false);
    const plain = server.requests.filter((r) => r.query.wait === undefined);
    // 250 ms growing ×1.5 up to 5 s while nothing changes: a handful of reads in 10 s, not one per 200 ms.
    expect(plain.length).toBeGreaterThan(3);
    expect(plain.length).toBeLessThan(12);
    const gaps = plain.slice(1).map((r, i) => r.at - plain[i]!.at);
    expect(gaps.at(-1)).toBeGreaterThan(gaps[1]!);

    server.set('run_a', 'completed');
    await vi.advanceTimersByTimeAsync(6_000);
    expect(watched.outcome.done).toBe(true);
  });

  it('starts over from a fresh read when runs are watched again after every watch ended', async () => {
    const server = new ChangeFeedStandIn();
    server.add('run_a');
    const { feed } = newFeed(server);
    server.set('run_a', 'completed');
    const firstDone = lastValueFrom(feed.watch('run_a').pipe(toArray()));
    await vi.advanceTimersByTimeAsync(500);
    const first = await firstDone;
    expect(first.map((run) => run.status)).toEqual(['completed']);
    server.add('run_b');
    const second = record(feed.watch('run_b'));
    await vi.advanceTimersByTimeAsync(150);
    const reads = server.requests.filter((r) => r.query.wait === undefined);
    expect(reads.at(-1)!.query.ids).toBe('run_b');
    expect(second.seen.map((s) => s.status)).toEqual(['queued']);
  });
});
