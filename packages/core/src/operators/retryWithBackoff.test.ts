import { defer } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { retryWithBackoff } from './retryWithBackoff.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const retryable = Object.assign(new Error('503'), { retryable: true });
const shouldRetry = (error: unknown) => (error as { retryable?: boolean }).retryable === true;

describe('retryWithBackoff', () => {
  it('backs off exponentially (full step with random = 1) and gives up after maxRetries', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-#', {}, retryable);
      const result = source.pipe(
        retryWithBackoff({ maxRetries: 2, baseDelayMs: 10, maxDelayMs: 100, random: () => 1, shouldRetry }),
      );
      // attempt at 0 fails at 1; wait 10; attempt at 11 fails at 12; wait 20; attempt at 32 fails at 33
      expectObservable(result).toBe('33ms #', {}, retryable);
      expectSubscriptions(source.subscriptions).toBe(['^!', '11ms ^!', '32ms ^!']);
    });
  });

  it('jitters anywhere between nothing and the whole step (full jitter)', () => {
    scheduler().run(({ cold, expectSubscriptions }) => {
      const source = cold('-#', {}, retryable);
      source
        .pipe(retryWithBackoff({ maxRetries: 1, baseDelayMs: 10, random: () => 0, shouldRetry }))
        .subscribe({ error: () => {} });
      expectSubscriptions(source.subscriptions).toBe(['^!', '1ms ^!']);
      const half = cold('-#', {}, retryable);
      half
        .pipe(retryWithBackoff({ maxRetries: 1, baseDelayMs: 10, random: () => 0.5, shouldRetry }))
        .subscribe({ error: () => {} });
      expectSubscriptions(half.subscriptions).toBe(['^!', '6ms ^!']);
    });
  });

  it('waits at least what Retry-After asked for (capped at maxDelayMs), plus jitter', () => {
    scheduler().run(({ cold, expectSubscriptions }) => {
      const limited = Object.assign(new Error('429'), { retryable: true, retryAfterMs: 30 });
      const source = cold('-#', {}, limited);
      source
        .pipe(retryWithBackoff({ maxRetries: 1, baseDelayMs: 1, random: () => 1, shouldRetry }))
        .subscribe({ error: () => {} });
      expectSubscriptions(source.subscriptions).toBe(['^!', '32ms ^!']);

      const greedy = Object.assign(new Error('429'), { retryable: true, retryAfterMs: 10_000 });
      const capped = cold('-#', {}, greedy);
      capped
        .pipe(retryWithBackoff({ maxRetries: 1, maxDelayMs: 50, random: () => 0, shouldRetry }))
        .subscribe({ error: () => {} });
      expectSubscriptions(capped.subscriptions).toBe(['^!', '51ms ^!']);
    });
  });

  it('passes an error it should not retry straight on', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const fatal = new Error('400');
      const source = cold('-#', {}, fatal);
      expectObservable(source.pipe(retryWithBackoff({ maxRetries: 3, shouldRetry }))).toBe('-#', {}, fatal);
      expectSubscriptions(source.subscriptions).toBe('^!');
    });
  });

  it('lets a success through after a failure', () => {
    scheduler().run(({ cold, expectObservable }) => {
      let attempt = 0;
      const source = cold('-#', {}, retryable);
      const ok = cold('-a|');
      const result = defer(() => (attempt++ === 0 ? source : ok)).pipe(
        retryWithBackoff({ maxRetries: 2, baseDelayMs: 4, random: () => 1, shouldRetry }),
      );
      expectObservable(result).toBe('------a|');
    });
  });
});
