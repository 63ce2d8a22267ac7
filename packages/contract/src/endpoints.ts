import type { z } from 'zod';
import { CrawlRequest, DeepCrawlRequest } from './crawl.js';
import { DocumentContent, DocumentContentQuery, DocumentPathParams } from './document.js';
import type { ErrorCode } from './errors.js';
import { ExtractRequest } from './extract.js';
import { PageQuery } from './pagination.js';
import {
  ContentQuery,
  ListResultsQuery,
  ResultContent,
  ResultPage,
  ResultPathParams,
  ScreenshotAccess,
} from './result.js';
import { CreateRunRequest, GetRunQuery, ListRunsQuery, Run, RunPage, RunPathParams } from './run.js';
import { CollectionPage, SearchAnswer, SearchRequest } from './search.js';
import { SignedScreenshotQuery } from './signed-url.js';

/** One endpoint of the v1 API: what it takes and what it answers. */
export interface Endpoint {
  method: 'get' | 'post' | 'delete';
  /** OpenAPI-style path, `{param}` placeholders. */
  path: string;
  operationId: string;
  summary: string;
  tag: 'Search' | 'Runs' | 'Results' | 'Collections' | 'Signed URLs';
  /** False for endpoints that need no `x-api-key` (signed URLs). */
  authenticated: boolean;
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Creating endpoints accept `Idempotency-Key`. */
  idempotent?: boolean;
  /** Answers carry an `ETag` (this says what it stands for); `If-None-Match` with it may answer 304. */
  conditional?: string;
  /** Response headers beyond the common ones, with what they mean. */
  headers?: Record<string, string>;
  success: { status: 200 | 202 | 204; description: string; schema?: z.ZodType; mediaType?: string };
  errors: readonly ErrorCode[];
}

/**
 * Errors any route may answer. `invalid_request` is among them because malformed HTTP (a bad
 * %-escape, an over-long path parameter) is refused on every route, whatever it validates.
 */
const common: ErrorCode[] = ['invalid_request', 'unauthorized', 'rate_limited', 'internal', 'unavailable'];
/**
 * A body sent with a POST or a DELETE is read (and refused when too large, not JSON or not
 * UTF-8) on every such route, those that take none included.
 */
const bodyErrors: ErrorCode[] = ['payload_too_large', 'unsupported_media_type'];
const creation = <const Id extends string, const Path extends string, Body extends z.ZodType>(
  summary: string,
  operationId: Id,
  path: Path,
  body: Body,
): Endpoint & {
  operationId: Id;
  path: Path;
  body: Body;
  success: { status: 202; description: string; schema: typeof Run };
} => ({
  method: 'post',
  path,
  operationId,
  summary,
  tag: 'Runs',
  authenticated: true,
  body,
  idempotent: true,
  success: { status: 202, description: 'The run, created; poll it until it is terminal.', schema: Run },
  errors: [...bodyErrors, 'unprocessable_url', ...common],
});

/** The table of {@link ENDPOINTS}, each entry with its own literal types (operationId, path, schemas). */
const TABLE = [
  {
    method: 'post',
    path: '/api/v1/search',
    operationId: 'search',
    summary:
      'Search indexed content and return ranked results. A collection this key has indexed nothing into answers 404.',
    tag: 'Search',
    authenticated: true,
    body: SearchRequest,
    success: { status: 200, description: 'Hits, best first.', schema: SearchAnswer },
    errors: [...bodyErrors, 'not_found', ...common],
  },
  creation('Create an extraction run.', 'createExtraction', '/api/v1/extract', ExtractRequest),
  creation('Create a crawl run.', 'createCrawl', '/api/v1/crawl', CrawlRequest),
  creation(
    'Create a broader crawl run from a starting URL.',
    'createDeepCrawl',
    '/api/v1/deep-crawl',
    DeepCrawlRequest,
  ),
  {
    method: 'get',
    path: '/api/v1/runs',
    operationId: 'listRuns',
    summary:
      "List existing runs, newest first; a page ends early at 4 Mi characters of runs' URLs and params (`next_cursor` goes on). With `wait` or `If-None-Match`: the listed runs (or all of the key's) that changed since that ETag, held until one does (batched long poll).",
    tag: 'Runs',
    authenticated: true,
    query: ListRunsQuery,
    conditional:
      'A position in the sequence of run changes. Send it back in If-None-Match to get only the runs that changed since (304 when none did).',
    headers: {
      'x-webdata-wait': 'Echoes `wait` when the server held the answer for changes.',
      'x-webdata-missing':
        'With `wait` or If-None-Match: with `ids`, the listed ids that name no run of this key (deleted or unknown); without, the runs of this key deleted since the ETag.',
    },
    success: {
      status: 200,
      description:
        'A page of runs; with `wait` or If-None-Match, the runs that changed, oldest change first.',
      schema: RunPage,
    },
    errors: [...common],
  },
  creation('Create a run-based workflow.', 'createRun', '/api/v1/runs', CreateRunRequest),
  {
    method: 'get',
    path: '/api/v1/runs/{runId}',
    operationId: 'getRun',
    summary: "Inspect a run's state and statistics. Sends an ETag; `wait` long-polls for a change.",
    tag: 'Runs',
    authenticated: true,
    pathParams: RunPathParams,
    query: GetRunQuery,
    conditional: "The run's version. Send it back in If-None-Match: 304 while the run is unchanged.",
    headers: { 'x-webdata-wait': 'Echoes `wait` when the server held the answer for a change.' },
    success: { status: 200, description: 'The run.', schema: Run },
    errors: ['not_found', ...common],
  },
  {
    method: 'delete',
    path: '/api/v1/runs/{runId}',
    operationId: 'deleteRun',
    summary: 'Delete a run (an active run is cancelled first) with its results, content and screenshots.',
    tag: 'Runs',
    authenticated: true,
    pathParams: RunPathParams,
    success: { status: 204, description: 'Deleted.' },
    errors: [...bodyErrors, 'not_found', ...common],
  },
  {
    method: 'post',
    path: '/api/v1/runs/{runId}/cancel',
    operationId: 'cancelRun',
    summary: 'Cancel in-flight work of a run.',
    tag: 'Runs',
    authenticated: true,
    pathParams: RunPathParams,
    success: { status: 200, description: 'The run, cancelled.', schema: Run },
    errors: [...bodyErrors, 'not_found', 'conflict', ...common],
  },
  {
    method: 'post',
    path: '/api/v1/runs/{runId}/retry',
    operationId: 'retryRun',
    summary: 'Retry failed or incomplete work of a run: only the items that did not succeed run again.',
    tag: 'Runs',
    authenticated: true,
    pathParams: RunPathParams,
    success: { status: 202, description: 'The run, queued again.', schema: Run },
    errors: [...bodyErrors, 'not_found', 'conflict', ...common],
  },
  {
    method: 'get',
    path: '/api/v1/runs/{runId}/results',
    operationId: 'listResults',
    summary:
      "List the results of a run; `include=content&format=…` carries each result's content in the page.",
    tag: 'Results',
    authenticated: true,
    pathParams: RunPathParams,
    query: ListResultsQuery,
    success: { status: 200, description: 'A page of results.', schema: ResultPage },
    errors: ['not_found', ...common],
  },
  {
    method: 'get',
    path: '/api/v1/runs/{runId}/results/{resultId}/content',
    operationId: 'getResultContent',
    summary:
      'Retrieve the content of one result, as JSON or, with `Accept: text/markdown|text/plain|text/html`, raw.',
    tag: 'Results',
    authenticated: true,
    pathParams: ResultPathParams,
    query: ContentQuery,
    success: { status: 200, description: 'The content.', schema: ResultContent },
    errors: ['not_found', ...common],
  },
  {
    method: 'get',
    path: '/api/v1/runs/{runId}/results/{resultId}/screenshot',
    operationId: 'getResultScreenshot',
    summary: "Retrieve access to the result's screenshot through a signed URL.",
    tag: 'Results',
    authenticated: true,
    pathParams: ResultPathParams,
    success: { status: 200, description: 'A signed URL and its expiry.', schema: ScreenshotAccess },
    errors: ['not_found', ...common],
  },
  {
    method: 'get',
    path: '/api/v1/collections',
    operationId: 'listCollections',
    summary: 'List collections with their document counts.',
    tag: 'Collections',
    authenticated: true,
    query: PageQuery,
    success: { status: 200, description: 'A page of collections.', schema: CollectionPage },
    errors: [...common],
  },
  {
    method: 'get',
    path: '/api/v1/collections/{collection}/documents/{documentId}',
    operationId: 'getDocumentContent',
    summary:
      "Retrieve the full content of an indexed document (a search hit's `document_id`), as JSON or, with `Accept: text/markdown|text/plain`, raw.",
    tag: 'Collections',
    authenticated: true,
    pathParams: DocumentPathParams,
    query: DocumentContentQuery,
    success: { status: 200, description: 'The document and its content.', schema: DocumentContent },
    errors: ['not_found', ...common],
  },
  {
    method: 'get',
    path: '/api/v1/signed/screenshots/{runId}/{resultId}',
    operationId: 'getSignedScreenshot',
    summary: 'The screenshot PNG behind a signed URL. Needs no API key; 403 when expired or altered.',
    tag: 'Signed URLs',
    authenticated: false,
    pathParams: ResultPathParams,
    query: SignedScreenshotQuery,
    success: { status: 200, description: 'The PNG image.', mediaType: 'image/png' },
    // No key, so no 401 and no per-key 429; 503 while the server shuts down or its store is busy.
    errors: ['invalid_request', 'forbidden', 'not_found', 'internal', 'unavailable'],
  },
] as const satisfies readonly Endpoint[];

/**
 * Every endpoint of the specification's table plus the extra ones of
 * api-v1.md. The OpenAPI document is generated from it and the server
 * declares its routes from it (see {@link endpointOf}), so neither can
 * drift from it.
 *
 * @example
 * ```ts
 * for (const e of ENDPOINTS) console.log(e.method.toUpperCase(), e.path);
 * ```
 */
export const ENDPOINTS: readonly Endpoint[] = TABLE;

/** The `operationId` of an endpoint of {@link ENDPOINTS}. */
export type OperationId = (typeof TABLE)[number]['operationId'];

/** The entry of {@link ENDPOINTS} with this `operationId`, typed by its own schemas. */
export type EndpointOf<Id extends OperationId> = Extract<(typeof TABLE)[number], { operationId: Id }>;

/**
 * The entry of {@link ENDPOINTS} with this `operationId`, typed by its own
 * schemas: the server declares each route from it, so a route takes its
 * method, path, authentication and request schemas from the table.
 *
 * @example
 * ```ts
 * endpointOf('getRun').path; // '/api/v1/runs/{runId}'
 * ```
 */
export function endpointOf<Id extends OperationId>(operationId: Id): EndpointOf<Id> {
  return TABLE.find((endpoint) => endpoint.operationId === operationId) as EndpointOf<Id>;
}
