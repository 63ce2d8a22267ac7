import { PageError } from '../errors.js';

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'ENODATA']);

/** The error and its `cause` chain, outermost first (bounded, in case of cycles). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** Why a request stopped, as seen from outside undici. */
export interface AbortState {
  /** The caller's signal (or the fetcher's close) aborted. */
  cancelled: boolean;
  /** The page deadline passed. */
  timedOut: boolean;
  timeoutMs: number;
}

/**
 * Turns whatever undici's fetch or a body read threw into a PageError with a
 * stable code. Our own PageErrors (guard refusals raised inside the connector,
 * size cap) pass through, wherever they sit in the cause chain.
 */
export function toPageError(error: unknown, url: string, state: AbortState): PageError {
  if (error instanceof PageError) return error;
  if (state.cancelled) return new PageError('cancelled', `fetch of ${url} was cancelled`, { cause: error });
  if (state.timedOut) {
    return new PageError('timeout', `fetch of ${url} took longer than ${state.timeoutMs} ms`, {
      cause: error,
    });
  }
  const chain = causeChain(error);
  for (const link of chain) {
    if (link instanceof PageError) return link;
  }
  for (const link of chain) {
    const code = (link as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (TIMEOUT_CODES.has(code)) {
      return new PageError('timeout', `fetch of ${url} timed out (${code})`, { cause: error });
    }
    if (DNS_CODES.has(code)) {
      return new PageError('fetch_failed', `could not resolve the host of ${url} (${code})`, {
        cause: error,
      });
    }
    return new PageError('fetch_failed', `fetch of ${url} failed: ${code}`, { cause: error });
  }
  const deepest = chain[chain.length - 1];
  const message = deepest instanceof Error ? deepest.message : String(deepest);
  return new PageError('fetch_failed', `fetch of ${url} failed: ${message}`, { cause: error });
}
