import { z } from 'zod';
import { HttpUrl, prefixedId, Timestamp } from './common.js';
import { CrawlRunRequest, DeepCrawlRunRequest } from './crawl.js';
import { ExtractRunRequest } from './extract.js';
import { LIMITS } from './limits.js';
import { openEnum } from './open-enum.js';
import { RunErrorInfo, RunErrorInfoLenient } from './page-errors.js';
import { PageQuery, page, pageLenient } from './pagination.js';

/** The kinds of run. */
export const RunType = z.enum(['extract', 'crawl', 'deep-crawl']);
export type RunType = z.infer<typeof RunType>;

/** States of a run still at work. */
export const IN_FLIGHT_STATUSES = ['queued', 'running'] as const;
/** States a run ends in. */
export const TERMINAL_STATUSES = ['completed', 'incomplete', 'failed', 'cancelled'] as const;

/** Every run status of the v1 contract. */
export const RunStatus = z.enum([...IN_FLIGHT_STATUSES, ...TERMINAL_STATUSES]);
export type RunStatus = z.infer<typeof RunStatus>;
export type TerminalRunStatus = (typeof TERMINAL_STATUSES)[number];

/**
 * True when `status` is one a run ends in. An unknown status (from a foreign
 * server) counts as still in flight, as api-v1.md asks of clients.
 *
 * @example
 * ```ts
 * isTerminalStatus('incomplete'); // true
 * isTerminalStatus('warming-up'); // false
 * ```
 */
export function isTerminalStatus(status: string): status is TerminalRunStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/** Counts of a run's work items by state. */
export const RunStats = z.strictObject({
  total: z.number().int().min(0),
  queued: z.number().int().min(0),
  running: z.number().int().min(0),
  succeeded: z.number().int().min(0),
  failed: z.number().int().min(0),
  cancelled: z.number().int().min(0),
});
export type RunStats = z.infer<typeof RunStats>;

/** The id of a run (`run_…`). */
export const RunId = prefixedId('run');

/**
 * A run as our server sends it.
 *
 * @example
 * ```ts
 * const run: Run = await fetch(`${base}/api/v1/runs/${id}`, { headers }).then((r) => r.json());
 * if (run.status === 'completed') console.log(run.stats.succeeded);
 * ```
 */
export const Run = z
  .strictObject({
    id: RunId,
    status: RunStatus,
    type: RunType,
    urls: z.array(HttpUrl),
    created_at: Timestamp,
    updated_at: Timestamp,
    started_at: Timestamp.nullable(),
    finished_at: Timestamp.nullable(),
    params: z.record(z.string(), z.unknown()).meta({ description: 'The creating request, less urls' }),
    stats: RunStats,
    error: RunErrorInfo.nullable(),
  })
  .meta({ id: 'Run' });
export type Run = z.infer<typeof Run>;

/**
 * A run as a client reads it from any server implementing the specification:
 * the five fields the specification shows are required, everything else is
 * optional, unknown fields are kept and an unknown `status` string is accepted.
 */
export const RunLenient = z.looseObject({
  id: z.string(),
  status: openEnum(RunStatus.options),
  type: openEnum(RunType.options),
  urls: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string().optional(),
  started_at: z.string().nullable().optional(),
  finished_at: z.string().nullable().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  stats: z
    .looseObject(Object.fromEntries(Object.keys(RunStats.shape).map((k) => [k, z.number().optional()])))
    .optional(),
  error: RunErrorInfoLenient.nullable().optional(),
});
export type RunLenient = z.infer<typeof RunLenient>;

/** A page of runs. */
export const RunPage = page(Run).meta({ id: 'RunPage' });
export type RunPage = z.infer<typeof RunPage>;
export const RunPageLenient = pageLenient(RunLenient);

/**
 * `POST /api/v1/runs`: `{ type, …that type's body }`.
 *
 * @example
 * ```ts
 * CreateRunRequest.parse({ type: 'crawl', urls: ['https://example.org/'] });
 * ```
 */
export const CreateRunRequest = z
  .discriminatedUnion('type', [ExtractRunRequest, CrawlRunRequest, DeepCrawlRunRequest])
  .meta({ id: 'CreateRunRequest' });
export type CreateRunRequest = z.input<typeof CreateRunRequest>;
export type CreateRunParams = z.output<typeof CreateRunRequest>;

/** A comma-separated list of ids in a query string, read as an array. */
const IdList = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').filter((id) => id !== '') : value),
  z.array(z.string().min(1).max(128)).min(1).max(LIMITS.maxIdsPerRequest),
);

/**
 * `GET /api/v1/runs` query: filters `status`, `type`, `ids`, plus pagination;
 * newest first. With `wait` (or an `If-None-Match` holding the list's ETag)
 * the answer is a change feed instead: the runs (among `ids`, else all of the
 * key's) that changed since that ETag, held up to `wait` seconds until one does.
 */
export const ListRunsQuery = PageQuery.extend({
  status: RunStatus.optional(),
  type: RunType.optional(),
  ids: IdList.optional().meta({ description: `Comma-separated run ids, at most ${LIMITS.maxIdsPerRequest}` }),
  wait: z.coerce.number().min(0).max(LIMITS.maxWaitSeconds).optional().meta({
    description:
      'Seconds to hold the answer until one of the listed runs (or, without `ids`, any run of the key) changes since the ETag sent in If-None-Match (else since the request arrived); answers with the runs that changed',
  }),
});
export type ListRunsQuery = z.infer<typeof ListRunsQuery>;

/** `GET /api/v1/runs/{runId}` query: `wait` holds the answer until the run changes (long poll). */
export const GetRunQuery = z.strictObject({
  wait: z.coerce.number().min(0).max(LIMITS.maxWaitSeconds).optional(),
});
export type GetRunQuery = z.infer<typeof GetRunQuery>;

/** Path parameters naming a run. */
export const RunPathParams = z.strictObject({ runId: z.string().min(1).max(128) });
