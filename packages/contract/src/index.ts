export {
  CollectionName,
  ContentFormat,
  HttpUrl,
  isAbsoluteHttpUrl,
  prefixedId,
  Timestamp,
} from './common.js';
export {
  type CrawlParams,
  CrawlRequest,
  CrawlRunParams,
  CrawlRunRequest,
  type DeepCrawlParams,
  DeepCrawlRequest,
  DeepCrawlRunParams,
  DeepCrawlRunRequest,
} from './crawl.js';
export {
  DocumentContent,
  DocumentContentFormat,
  DocumentContentLenient,
  DocumentContentQuery,
  DocumentPathParams,
} from './document.js';
export { ENDPOINTS, type Endpoint, type EndpointOf, endpointOf, type OperationId } from './endpoints.js';
export { ERROR_STATUS, ErrorBody, ErrorBodyLenient, ErrorCode, ErrorDetail } from './errors.js';
export {
  ExtractionSchema,
  type ExtractParams,
  ExtractRequest,
  ExtractRunParams,
  ExtractRunRequest,
  JsonType,
  SchemaProperty,
  UrlList,
} from './extract.js';
export { LIMITS } from './limits.js';
export { openEnum } from './open-enum.js';
export { buildOpenApiDocument } from './openapi.js';
export {
  PAGE_ERROR_CODES,
  PageErrorCode,
  PageErrorInfo,
  PageErrorInfoLenient,
  RUN_ERROR_CODES,
  RunErrorCode,
  RunErrorInfo,
  RunErrorInfoLenient,
} from './page-errors.js';
export { PageQuery, page, pageLenient } from './pagination.js';
export {
  ContentQuery,
  ContentValue,
  ListResultsQuery,
  Result,
  ResultContent,
  ResultContentFormat,
  ResultContentLenient,
  ResultLenient,
  ResultPage,
  ResultPageLenient,
  ResultPathParams,
  ResultStatus,
  ScreenshotAccess,
  ScreenshotAccessLenient,
} from './result.js';
export {
  type CreateRunParams,
  CreateRunRequest,
  GetRunQuery,
  IN_FLIGHT_STATUSES,
  isTerminalStatus,
  ListRunsQuery,
  Run,
  RunId,
  RunLenient,
  RunPage,
  RunPageLenient,
  RunPathParams,
  RunStats,
  RunStatus,
  RunType,
  TERMINAL_STATUSES,
  type TerminalRunStatus,
} from './run.js';
export { RUN_PARAMS, type RunParams, type TypedRunParams } from './run-params.js';
export {
  Collection,
  CollectionLenient,
  CollectionPage,
  CollectionPageLenient,
  SearchAnswer,
  SearchAnswerLenient,
  SearchHit,
  SearchHitLenient,
  type SearchParams,
  SearchRequest,
} from './search.js';
export { SignedScreenshotQuery } from './signed-url.js';
