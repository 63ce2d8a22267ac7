/**
 * The default limits of the v1 contract (api-v1.md, "Limits").
 *
 * Request schemas enforce the ones that belong to a single request (URL count,
 * schema depth, string sizes); the server enforces the rest (body size, rate,
 * download size) and may be configured to other values.
 *
 * @example
 * ```ts
 * import { LIMITS } from '@webdata/contract';
 * console.log(LIMITS.maxUrlsPerRequest); // 100
 * ```
 */
export const LIMITS = {
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: 1024 * 1024,
  /** URLs in one extract or crawl request. */
  maxUrlsPerRequest: 100,
  /** Longest accepted URL, in characters. */
  maxUrlLength: 2048,
  /** Nesting depth of an extraction schema (the root object is depth 1). */
  maxSchemaDepth: 8,
  /** Size of an extraction schema serialised as JSON, in bytes. */
  maxSchemaBytes: 64 * 1024,
  /** Properties declared by one object of an extraction schema. */
  maxSchemaProperties: 200,
  /** Length of an extraction query or a search query, in characters. */
  maxQueryLength: 10_000,
  maxSearchQueryLength: 1_000,
  /** Glob patterns in `include_paths` or `exclude_paths`, and the length of each. */
  maxPathPatterns: 100,
  maxPathPatternLength: 512,
  /** Hard upper bound of a deep crawl's `limit`; the server's configured ceiling (default 10,000) applies below it. */
  maxDeepCrawlLimit: 1_000_000,
  defaultDeepCrawlCeiling: 10_000,
  /** Upper bound of `max_depth` for a deep crawl. */
  maxDeepCrawlDepth: 100,
  /** Upper bound of `limit` for a crawl from a start URL. */
  maxCrawlLimit: 10_000,
  /** Page size of list endpoints. */
  defaultPageSize: 50,
  maxPageSize: 200,
  /**
   * Content carried by one page of `GET …/results?include=content`, in characters: the page ends
   * at the result that would pass it (it always holds one), and `next_cursor` goes on from there.
   */
  maxIncludedContentChars: 8 * 1024 * 1024,
  /**
   * Runs in one page of `GET /runs` (and `?ids=`), in characters of their URLs and params: the page
   * ends at the run that would pass it (it always holds one), and `next_cursor` goes on from there.
   */
  maxRunListChars: 4 * 1024 * 1024,
  /** Page size of search answers. */
  defaultSearchLimit: 10,
  maxSearchLimit: 100,
  /** Ids in one `GET /runs?ids=` request. */
  maxIdsPerRequest: 100,
  /** Longest `?wait=` long poll, in seconds. */
  maxWaitSeconds: 30,
  /** Page download cap, in bytes, and page time-out, in milliseconds. */
  maxDownloadBytes: 10 * 1024 * 1024,
  pageTimeoutMs: 30_000,
  /** Requests per second per key, and the burst allowed above it. */
  rateLimitPerSecond: 20,
  rateLimitBurst: 40,
  /** Lifetime of a signed screenshot URL, in seconds: default and maximum. */
  signedUrlTtlSeconds: 15 * 60,
  maxSignedUrlTtlSeconds: 7 * 24 * 60 * 60,
  /** Length of a collection name. */
  maxCollectionNameLength: 64,
  /** How long an `Idempotency-Key` is remembered, in seconds. */
  idempotencyTtlSeconds: 24 * 60 * 60,
  maxIdempotencyKeyLength: 255,
} as const;
