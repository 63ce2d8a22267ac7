import { defer, of, throwError, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  ServiceUnavailableError,
  TimeoutError,
} from '../errors.js';
import { outageDelayMs, rideOutOutage } from './outage.js';

const refused = () => new ConnectionError('connect ECONNREFUSED', { systemCode: 'ECONNREFUSED' });
const draining = (retryAfterMs?: number) =>
  new ServiceUnavailableError({ status: 503, code: 'unavailable', message: 'shutting down', retryAfterMs });

/** A request that fails with `errors` one per try, then answers 'ok'; its tries' virtual times. */
function flaky(errors: unknown[], scheduler: VirtualTimeScheduler) {
  const tries: number[] = [];
  const source$ = defer(() => {
    tries.push(scheduler.now());
    const error = errors[tries.length - 1];
    return error === undefined ? of('ok') : throwError(() => error);
  });
  return { source$, tries };
}

function run(
  source$: ReturnType<typeof flaky>['source$'],
  outageMs: number,
  scheduler: VirtualTimeScheduler,
) {
  const seen: { value?: string; error?: unknown } = {};
  rideOutOutage(source$, { outageMs, scheduler }).subscribe({
    next: (value) => {
      seen.value = value;
    },
    error: (error: unknown) => {
      seen.error = error;
    },
  });
  scheduler.flush();
  return seen;
}

describe('rideOutOutage', () => {
  it('tries again through refused connections, time-outs and 503s, honouring Retry-After', () => {
    const scheduler = new VirtualTimeScheduler();
    const { source$, tries } = flaky(
      [refused(), draining(5_000), new TimeoutError('slow'), refused()],
      scheduler,
    );
    expect(run(source$, 60_000, scheduler)).toEqual({ value: 'ok' });
    // 1 s, then the 503's 5 s (more than the 2 s step), 4 s, 5 s.
    expect(tries).toEqual([0, 1_000, 6_000, 10_000, 15_000]);
  });

  it('gives up once the outage has lasted outageMs, with the last error', () => {
    const scheduler = new VirtualTimeScheduler();
    const errors = Array.from({ length: 100 }, (_, i) => (i === 4 ? draining() : refused()));
    const { source$, tries } = flaky(errors, scheduler);
    const seen = run(source$, 12_000, scheduler);
    // Tries at 0, 1, 3, 7, 12 s: the fifth (a 503) is at the budget, so it goes through.
    expect(tries).toEqual([0, 1_000, 3_000, 7_000, 12_000]);
    expect(seen.error).toBeInstanceOf(ServiceUnavailableError);
    expect(seen.value).toBeUndefined();
  });

  it('ends at once on 4xx answers', () => {
    for (const error of [
      new AuthenticationError({ status: 401, code: 'unauthorized', message: 'bad key' }),
      new NotFoundError({ status: 404, code: 'not_found', message: 'no run' }),
      new BadRequestError({ status: 400, code: 'bad_request', message: 'bad' }),
    ]) {
      const scheduler = new VirtualTimeScheduler();
      const { source$, tries } = flaky([error], scheduler);
      expect(run(source$, 60_000, scheduler).error).toBe(error);
      expect(tries).toEqual([0]);
    }
  });

  it('with outageMs 0 lets the first outage error through', () => {
    const scheduler = new VirtualTimeScheduler();
    const error = refused();
    const { source$, tries } = flaky([error], scheduler);
    expect(run(source$, 0, scheduler).error).toBe(error);
    expect(tries).toEqual([0]);
  });
});

describe('outageDelayMs', () => {
  it('backs off 1, 2, 4, then 5 s, never sooner than Retry-After (capped at 30 s)', () => {
    expect([1, 2, 3, 4, 9].map((n) => outageDelayMs(n, refused()))).toEqual([
      1_000, 2_000, 4_000, 5_000, 5_000,
    ]);
    expect(outageDelayMs(1, draining(5_000))).toBe(5_000);
    expect(outageDelayMs(1, draining(600_000))).toBe(30_000);
  });
});
