import {
  asyncScheduler,
  type MonoTypeOperatorFunction,
  retry,
  type SchedulerLike,
  throwError,
  timer,
} from 'rxjs';
import { type BackoffPolicy, DEFAULT_BACKOFF, retryDelayMs } from '../internal/backoff.js';

/**
 * Configuration of {@link retryWithBackoff}.
 *
 * @example
 * ```ts
 * source$.pipe(retryWithBackoff({ maxRetries: 5, baseDelayMs: 100, maxDelayMs: 5_000, shouldRetry: (e) => e instanceof ConnectionError }));
 * ```
 */
export interface RetryWithBackoffConfig extends Partial<BackoffPolicy> {
  /** Whether this error, on this retry (0-based), is worth another attempt. */
  shouldRetry: (error: unknown, attempt: number) => boolean;
  /** The delay the server asked for, if the error carries one (default: `error.retryAfterMs`). */
  retryAfterMs?: (error: unknown) => number | undefined;
  /** Called before each wait, e.g. to log it. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  /** Source of jitter in [0, 1); injectable so schedules can be pinned in tests. */
  random?: () => number;
  scheduler?: SchedulerLike;
}

function errorRetryAfter(error: unknown): number | undefined {
  const value = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof value === 'number' ? value : undefined;
}

/**
 * Resubscribes to the source after an error that `shouldRetry` accepts,
 * waiting a random delay between 0 and an exponentially growing step ("full
 * jitter"), on top of what the server's `Retry-After` asked for (capped at
 * `maxDelayMs`), so callers that failed together do not return together. Gives up after
 * `maxRetries` and passes the last error on. Every attempt is a fresh
 * subscription, so a cold HTTP observable sends a fresh request.
 *
 * @example
 * ```ts
 * import { defer } from 'rxjs';
 * import { retryWithBackoff } from '@webdata/core';
 *
 * const answer$ = defer(() => fetch('http://127.0.0.1:8080/health')).pipe(
 *   retryWithBackoff({ maxRetries: 3, baseDelayMs: 200, shouldRetry: () => true }),
 * );
 * ```
 */
export function retryWithBackoff<T>(config: RetryWithBackoffConfig): MonoTypeOperatorFunction<T> {
  const policy: BackoffPolicy = {
    maxRetries: config.maxRetries ?? DEFAULT_BACKOFF.maxRetries,
    baseDelayMs: config.baseDelayMs ?? DEFAULT_BACKOFF.baseDelayMs,
    maxDelayMs: config.maxDelayMs ?? DEFAULT_BACKOFF.maxDelayMs,
  };
  const scheduler = config.scheduler ?? asyncScheduler;
  const readRetryAfter = config.retryAfterMs ?? errorRetryAfter;
  return (source) =>
    policy.maxRetries <= 0
      ? source
      : source.pipe(
          retry({
            count: policy.maxRetries,
            delay: (error, retryCount) => {
              const attempt = retryCount - 1;
              if (!config.shouldRetry(error, attempt)) return throwError(() => error);
              const delayMs = retryDelayMs(attempt, policy, readRetryAfter(error), config.random);
              config.onRetry?.(error, attempt, delayMs);
              return timer(delayMs, scheduler);
            },
          }),
        );
}
