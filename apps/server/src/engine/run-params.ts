import { isDeepStrictEqual } from 'node:util';
import {
  type CreateRunParams,
  RUN_PARAMS,
  type Run,
  type RunType,
  type TypedRunParams,
} from '@webdata/contract';

/**
 * A validated creating request split the way a run stores it: its URLs (the
 * run's `urls`) and its type with the rest of the body as params, typed by
 * the contract's schema for that type.
 */
export function splitRunRequest(request: CreateRunParams): { urls: string[]; run: TypedRunParams } {
  switch (request.type) {
    case 'extract': {
      const { type, urls, ...params } = request;
      return { urls, run: { type, params } };
    }
    case 'crawl': {
      const { type, urls, ...params } = request;
      // The contract asks for exactly one of `urls` (known pages) and `url` (a start page).
      const start = params.url === undefined ? [] : [params.url];
      return { urls: urls ?? start, run: { type, params } };
    }
    case 'deep-crawl': {
      const { type, ...params } = request;
      return { urls: [params.url], run: { type, params } };
    }
  }
}

/**
 * Whether a stored run is the one this split request would create: same type,
 * URLs and params (defaults filled in on both sides, key order ignored, since
 * PostgreSQL's jsonb does not keep it). An `Idempotency-Key` replays its run
 * only for the request that made it.
 */
export function isSameRunRequest(
  run: Pick<Run, 'type' | 'urls' | 'params'>,
  urls: string[],
  typed: TypedRunParams,
): boolean {
  return (
    run.type === typed.type &&
    isDeepStrictEqual(run.urls, urls) &&
    isDeepStrictEqual(plain(run.params), plain(typed.params))
  );
}

/** A params object as JSON holds it: absent and undefined alike. */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/**
 * Params objects already read, by identity: the SQLite store hands every item
 * of a run the same params object, so a crawl's schema parse runs once a run,
 * not once a page. Read-only use: neither the store's object nor the typed
 * params are changed after reading.
 */
const alreadyRead = new WeakMap<object, TypedRunParams>();

/**
 * A run's params as the store hands them back (parsed JSON), read with the
 * contract's schema of its type: defaults applied, anything else refused
 * (a throw, which fails the item as an internal error rather than guessing).
 * The same params object read again gives the same typed params.
 */
export function readRunParams(type: RunType, params: unknown): TypedRunParams {
  if (typeof params !== 'object' || params === null) return parseRunParams(type, params);
  const known = alreadyRead.get(params);
  if (known?.type === type) return known;
  const typed = parseRunParams(type, params);
  alreadyRead.set(params, typed);
  return typed;
}

function parseRunParams(type: RunType, params: unknown): TypedRunParams {
  switch (type) {
    case 'extract':
      return { type, params: RUN_PARAMS.extract.parse(params) };
    case 'crawl':
      return { type, params: RUN_PARAMS.crawl.parse(params) };
    case 'deep-crawl':
      return { type, params: RUN_PARAMS['deep-crawl'].parse(params) };
  }
}
