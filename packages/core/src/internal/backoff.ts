/** How retries back off: exponential from `baseDelayMs`, capped, with jitter. */
export interface BackoffPolicy {
  /** Retries after the first attempt (0 disables retrying). */
  maxRetries: number;
  /** Delay before the first retry, before jitter. */
  baseDelayMs: number;
  /** Cap on any single delay, including one asked for by `Retry-After`. */
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000 };

/**
 * Delay before retry number `attempt` (0-based): "full jitter", anywhere
 * between 0 and the exponential step (`baseDelayMs` × 2^attempt, capped at
 * `maxDelayMs`), so callers that failed together come back spread out. A
 * server's `Retry-After` (capped) is a floor the jitter is added to.
 */
export function retryDelayMs(
  attempt: number,
  policy: BackoffPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  const floor =
    retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
      ? Math.min(retryAfterMs, policy.maxDelayMs)
      : 0;
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(floor + step * random());
}

/**
 * Reads `Retry-After` (delta seconds or an HTTP date) or `retry-after-ms`
 * into milliseconds; undefined when absent or unreadable.
 */
export function parseRetryAfter(
  headers: Record<string, string | string[] | undefined>,
  now: () => number = Date.now,
): number | undefined {
  const ms = headerValue(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const value = headerValue(headers, 'retry-after');
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now());
}

/** One header's value as a string (the first, when repeated). */
export function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
