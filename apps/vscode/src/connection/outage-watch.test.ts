import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BehaviorSubject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionState } from './connection-state.js';
import { healthzUrl, type Outage, OutageWatch, serviceAnswers } from './outage-watch.js';

describe('OutageWatch', () => {
  let state: BehaviorSubject<ConnectionState>;
  let checks: number[];
  let up: boolean;
  let watch: OutageWatch;
  let confirm: ReturnType<typeof vi.fn<() => Promise<void>>>;
  const start = Date.UTC(2026, 10, 27, 12);

  beforeEach(() => {
    vi.useFakeTimers({ now: start });
    state = new BehaviorSubject<ConnectionState>('connected');
    checks = [];
    up = false;
    confirm = vi.fn(async () => {
      // As the extension's confirm does: a request with the key, which moves the connection on.
      state.next('connected');
    });
    watch = new OutageWatch(state, {
      check: async () => {
        checks.push((Date.now() - start) / 1000);
        return up;
      },
      confirm,
    });
  });

  afterEach(() => {
    watch.dispose();
    vi.useRealTimers();
  });

  it('asks nothing while the service answers', async () => {
    await vi.advanceTimersByTimeAsync(600_000);
    expect(checks).toEqual([]);
    expect(watch.outage).toBeUndefined();
  });

  it('checks /healthz while it does not, after 2 s, backing off to every 30 s', async () => {
    state.next('unreachable');
    expect(watch.outage).toMatchObject({ checking: false, checks: 0, nextCheckAt: start + 2_000 });
    await vi.advanceTimersByTimeAsync(150_000);
    // 2, +4, +8, +16, +30, +30, +30, +30
    expect(checks).toEqual([2, 6, 14, 30, 60, 90, 120, 150]);
    expect(confirm).not.toHaveBeenCalled();
    expect(watch.outage?.checks).toBe(8);
  });

  it('once the service answers, confirms with the key; the outage ends and the checks stop', async () => {
    const seen: (Outage | undefined)[] = [];
    watch.outage$.subscribe((outage) => seen.push(outage));
    state.next('unreachable');
    await vi.advanceTimersByTimeAsync(6_000);
    up = true;
    await vi.advanceTimersByTimeAsync(8_000);
    expect(checks).toEqual([2, 6, 14]);
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(watch.outage).toBeUndefined();
    expect(seen.at(-1)).toBeUndefined();
    expect(seen.some((outage) => outage?.checking)).toBe(true);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(checks).toEqual([2, 6, 14]);
  });

  it('goes on checking when /healthz answers but the request with the key finds no service', async () => {
    confirm.mockImplementation(async () => undefined);
    up = true;
    state.next('unreachable');
    await vi.advanceTimersByTimeAsync(6_000);
    expect(checks).toEqual([2, 6]);
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(watch.outage).toBeDefined();
  });

  it('ends as soon as anything else finds the service back, with no check out', async () => {
    state.next('unreachable');
    await vi.advanceTimersByTimeAsync(2_500);
    state.next('connected');
    expect(watch.outage).toBeUndefined();
    await vi.advanceTimersByTimeAsync(300_000);
    expect(checks).toEqual([2]);
  });

  it('checks at once when asked (the status bar item), and backs off again from 2 s', async () => {
    state.next('unreachable');
    await vi.advanceTimersByTimeAsync(31_000);
    expect(checks).toEqual([2, 6, 14, 30]);
    watch.checkNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(checks).toEqual([2, 6, 14, 30, 31]);
    await vi.advanceTimersByTimeAsync(6_000);
    expect(checks).toEqual([2, 6, 14, 30, 31, 33, 37]);
  });

  it('starts over from 2 s at the next outage', async () => {
    state.next('unreachable');
    await vi.advanceTimersByTimeAsync(14_000);
    state.next('connected');
    await vi.advanceTimersByTimeAsync(1_000);
    state.next('unreachable');
    await vi.advanceTimersByTimeAsync(6_000);
    expect(checks).toEqual([2, 6, 14, 17, 21]);
  });

  it('counts a check that throws as no answer', async () => {
    const failing = new OutageWatch(state, {
      check: async () => {
        checks.push((Date.now() - start) / 1000);
        throw new Error('ECONNREFUSED');
      },
      confirm,
    });
    state.next('unreachable');
    await vi.advanceTimersByTimeAsync(6_000);
    failing.dispose();
    // Both watches checked (this test's and beforeEach's), at the same times.
    expect(checks).toEqual([2, 2, 6, 6]);
    expect(confirm).not.toHaveBeenCalled();
  });
});

describe('healthzUrl', () => {
  it('is /healthz under the address set, whatever its trailing slashes', () => {
    expect(healthzUrl('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787/healthz');
    expect(healthzUrl('http://127.0.0.1:8787//')).toBe('http://127.0.0.1:8787/healthz');
    expect(healthzUrl(' http://10.0.0.7/webdata/ ')).toBe('http://10.0.0.7/webdata/healthz');
  });
});

describe('serviceAnswers', () => {
  it('is true on a 2xx from /healthz, false on another status, and rejects with no service', async () => {
    let status = 200;
    const paths: string[] = [];
    const server = createServer((request, response) => {
      paths.push(request.url ?? '');
      response.writeHead(status).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await serviceAnswers(url)).toBe(true);
      status = 503;
      expect(await serviceAnswers(`${url}/`)).toBe(false);
      expect(paths).toEqual(['/healthz', '/healthz']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await expect(serviceAnswers(url)).rejects.toThrow();
  });
});
