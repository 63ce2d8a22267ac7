import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AbortError } from '../errors.js';
import { RequestPacer } from './request-pacer.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Grants recorded as the fake clock's time, for a pacer on that clock. */
function pacerOnFakeClock(budget: ConstructorParameters<typeof RequestPacer>[0]) {
  const pacer = new RequestPacer(budget, () => Date.now());
  const granted: number[] = [];
  const start = Date.now();
  const take = (options?: Parameters<RequestPacer['acquire']>[0]) =>
    pacer.acquire(options).then((release) => {
      granted.push(Date.now() - start);
      return release;
    });
  return { pacer, granted, take };
}

describe('RequestPacer', () => {
  it('lets a burst through at once, then one request per 1/rate seconds', async () => {
    const { granted, take } = pacerOnFakeClock({ perSecond: 10, burst: 3, concurrent: 100 });
    const all = Promise.all(Array.from({ length: 6 }, () => take().then((release) => release())));
    await vi.advanceTimersByTimeAsync(1_000);
    await all;
    expect(granted).toEqual([0, 0, 0, 100, 200, 300]);
  });

  it('holds requests beyond the concurrency cap until one is released; long polls take no slot', async () => {
    const { granted, take } = pacerOnFakeClock({ perSecond: 1_000, burst: 100, concurrent: 2 });
    const first = await take();
    await take();
    const third = take();
    const longPoll = take({ holdsSlot: false });
    await vi.advanceTimersByTimeAsync(50);
    expect(granted).toHaveLength(3); // the long poll went past the waiting request
    first();
    first(); // releasing twice frees one slot only
    await third;
    expect(granted).toHaveLength(4);
    await longPoll;
  });

  it('after a 429 sends nothing until Retry-After, then slower, and wins the rate back', async () => {
    const { pacer, granted, take } = pacerOnFakeClock({ perSecond: 10, burst: 10, concurrent: 100 });
    pacer.onRateLimited(2_000);
    expect(pacer.rate).toBeCloseTo(10 * (2 / 3));
    const waiting = Promise.all(Array.from({ length: 12 }, () => take()));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(granted).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    await waiting;
    // The bucket refilled during the pause (as the server's does), then the lower rate applies.
    expect(granted[0]).toBeGreaterThanOrEqual(2_000);
    expect(granted[11]! - granted[10]!).toBe(150);
    for (let i = 0; i < 100; i++) pacer.onAnswered();
    expect(pacer.rate).toBe(10);
    expect(pacer.counts.rateLimited).toBe(1);
  });

  it('gives the turn away when the waiting request is aborted', async () => {
    const { pacer, take } = pacerOnFakeClock({ perSecond: 1, burst: 1, concurrent: 100 });
    await take();
    const controller = new AbortController();
    const aborted = take({ signal: controller.signal });
    const next = take();
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
    expect(pacer.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await next;
    expect(pacer.waiting).toBe(0);
  });

  it('refuses a budget that could never send', () => {
    expect(() => new RequestPacer({ perSecond: 0 })).toThrow(TypeError);
  });
});
