// The contract's run vocabulary and the shapes a caller names, so that callers of the
// client need not depend on the contract.
export {
  type ContentValue,
  type CrawlRequest,
  type CreateRunRequest,
  type DeepCrawlRequest,
  type DocumentContentFormat,
  type ExtractRequest,
  IN_FLIGHT_STATUSES,
  isTerminalStatus,
  PAGE_ERROR_CODES,
  type PageErrorCode,
  type ResultContentFormat,
  type ResultLenient,
  RUN_ERROR_CODES,
  type RunErrorCode,
  type RunLenient,
  type RunStatus,
  RunType,
  type SearchRequest,
  TERMINAL_STATUSES,
} from '@webdata/contract';
export { type ClientOptions, createClient, WebDataClient } from './client.js';
export { collectRun, type ResultDataOf } from './collect-run.js';
export { eachEvent } from './each-event.js';
export {
  AbortError,
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  BadRequestError,
  CLIENT_ERROR_CODES,
  type ClientErrorCode,
  ConflictError,
  ConnectionError,
  errorFromResponse,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  ResultDataError,
  RunFailedError,
  RunNotFinishedError,
  RunTimeoutError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableUrlError,
  WebDataError,
  type WebDataErrorCode,
} from './errors.js';
export { inInputOrder, inputRank } from './input-order.js';
export type { ServerCapabilities } from './internal/capabilities.js';
export type { PollOptions } from './internal/run-watcher.js';
export { deadline } from './operators/deadline.js';
export { distinctSnapshot, runSnapshotKey } from './operators/distinctSnapshot.js';
export { type CursorPage, paginate } from './operators/paginate.js';
export {
  type AdaptivePollPolicy,
  DEFAULT_POLL_POLICY,
  nextPollDelay,
  type PollAnswer,
  type PollScheduleState,
  pollAdaptive,
} from './operators/pollAdaptive.js';
export { type RetryWithBackoffConfig, retryWithBackoff } from './operators/retryWithBackoff.js';
export { shareLatest } from './operators/shareLatest.js';
export { takeUntilTerminal } from './operators/takeUntilTerminal.js';
export { type ItemPage, PagedStream } from './paged-stream.js';
export type { ExpandedResult, ResultPage, Results, ResultsOptions } from './resources/results.js';
export type { CallOptions, ListAllRunsQuery, RunKind, Runs, TypedExtractRequest } from './resources/runs.js';
export type {
  CollectionPage,
  DocumentContent,
  DocumentOptions,
  SearchAllRequest,
  SearchHit,
} from './resources/search.js';
export type { RunEvent, RunOptions, RunOutcome, RunResult } from './run-events.js';
export { type SnippetPart, snippetParts, snippetText } from './snippet.js';
export {
  type HttpRequest,
  type HttpResponse,
  type Logger,
  parseBody,
  Transport,
  type TransportOptions,
} from './transport.js';
