import type { Run } from './run-types.js';
import type { RunRequest } from './start-run.js';

/** The run types whose request this client can rebuild (`POST /runs` bodies). */
const REQUEST_TYPES = new Set(['extract', 'crawl', 'deep-crawl']);

/**
 * The request that created a run, rebuilt from what the run keeps of it:
 * `params` is the creating request with its defaults filled in, less `type`
 * and `urls` (the run's own fields). A crawl from a start page and a deep
 * crawl keep that page as `params.url`, and `urls` repeats it: the request
 * then has `url` only (the service refuses both). What Run Again sends and
 * Show Run Details shows; `undefined` when the run keeps no params or is of a
 * type this client does not know.
 *
 * @example
 * ```ts
 * requestOfRun({ type: 'extract', urls: ['https://a.example/'], params: { query: 'the price' } });
 * // { type: 'extract', urls: ['https://a.example/'], query: 'the price' }
 * ```
 */
export function requestOfRun(run: Pick<Run, 'type' | 'urls' | 'params'>): RunRequest | undefined {
  const params = run.params;
  if (!params || typeof params !== 'object' || !REQUEST_TYPES.has(run.type)) return undefined;
  const urls = typeof params.url === 'string' ? {} : { urls: run.urls };
  return { type: run.type, ...urls, ...params } as RunRequest;
}
