import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import { LIMITS } from '@webdata/contract';
import type { EmbeddingsSettings } from './search/embeddings.js';
import type { S3BlobStoreOptions } from './store/blobs/s3-blob-store.js';
import { MAX_PAGE_STARTS } from './store/crashed-outcome.js';
import { MAX_ACTIVE_RUNS_PER_OWNER } from './store/store.js';

/** Settings of the model-backed extraction engine (any OpenAI-compatible chat-completions endpoint). */
export type { EmbeddingsSettings } from './search/embeddings.js';

export interface LlmSettings {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  timeoutMs: number;
}

/** Where result contents and screenshots go when the store is shared (PostgreSQL). */
export type BlobSettings = { kind: 'directory'; path: string } | ({ kind: 's3' } & S3BlobStoreOptions);

/**
 * Everything the server can be told. Every limit lives here with its default
 * from api-v1.md; `loadConfig` reads overrides from the environment.
 */
export interface ServerConfig {
  host: string;
  port: number;
  /** Folder of the SQLite file, screenshots and the signing secret. */
  dataDir: string;
  /** Base URL of signed screenshot URLs and of the served OpenAPI document's server URL (`Location` headers are paths); derived from host/port when unset. */
  publicUrl?: string | undefined;
  /** Work items processed at once by this process's worker pool. */
  workerConcurrency: number;
  /** Threads converting pages beside the main thread (0: convert on the main thread). */
  convertThreads: number;
  /** Run workers in this process (the embedded default; off for `--role api`). */
  runWorkers: boolean;
  /** Serve the HTTP API from this process (off for `--role worker`). */
  serveApi: boolean;
  /**
   * PostgreSQL connection URL: when set, runs, queue and search live in that
   * database (shared by every process pointed at it) instead of the SQLite file.
   */
  databaseUrl?: string | undefined;
  /** Blob store of a PostgreSQL setup; a `blobs` folder in the data directory when unset. */
  blobs?: BlobSettings | undefined;
  /** Connections this process keeps to PostgreSQL at most. */
  databasePoolSize: number;
  /** How long a claimed item stays leased without a heartbeat (heartbeats every third of it). */
  leaseMs: number;
  /**
   * Times work on one page may start before a page whose process never came back from it (crash,
   * out of memory, killed, hung past its lease) fails `crashed` (see `MAX_PAGE_STARTS`).
   */
  maxPageStarts: number;
  /** Allow fetching private, loopback and link-local addresses. Off by default. */
  allowPrivateNetworks: boolean;
  userAgent: string;
  /** Fetch limits. */
  pageTimeoutMs: number;
  connectTimeoutMs: number;
  maxDownloadBytes: number;
  maxRedirects: number;
  /** Politeness: requests in flight per host, and the pause between two requests to one host. */
  perHostConcurrency: number;
  perHostDelayMs: number;
  /** API limits. */
  maxBodyBytes: number;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /**
   * Requests without a valid API key (401) per second per client address, and
   * the burst; past them such requests get 429. A valid key is never held
   * back by this, so clients sharing an address (a proxy) keep working.
   */
  authFailureRatePerSecond: number;
  authFailureBurst: number;
  /** Time for a request's headers, and for all of it with its body, to arrive (408 past either). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  deepCrawlCeiling: number;
  /**
   * Runs one owner may have queued or running at once; a creation or retry past it is 429
   * `rate_limited` until one ends (see `MAX_ACTIVE_RUNS_PER_OWNER`).
   */
  maxActiveRunsPerOwner: number;
  signedUrlTtlSeconds: number;
  /** Longest a request schema may take to compile (or an output to be checked) on the schema thread. */
  schemaBudgetMs: number;
  /** Screenshots: Chromium executable (found automatically when unset) and pages rendered at once. */
  chromiumPath?: string | undefined;
  screenshotConcurrency: number;
  /**
   * Resident memory one of Chromium's renderers may use, in MB; a renderer past it is stopped and
   * its page's screenshot fails `too_large` (Linux only: read from `/proc`).
   */
  screenshotMemoryLimitMb: number;
  /**
   * Memory the embedded (SQLite) store's search may keep its FTS indexes' copy in, in MB (the first
   * stage answered from memory; see src/search/README.md): an index that would take more is searched
   * by FTS5 alone. 0 turns the copy off.
   */
  searchMemoryMb: number;
  /** Optional model-backed extraction. */
  llm?: LlmSettings | undefined;
  /**
   * Optional semantic search: pages are embedded when indexed and queries when
   * searched, and the vector ranking is fused with the lexical one.
   */
  embeddings?: EmbeddingsSettings | undefined;
  /** Log level of Fastify's logger; `silent` in tests. */
  logLevel: string;
  /** Check every response body against its strict contract schema before sending (tests). */
  validateResponses: boolean;
}

/** The default data directory: `$XDG_STATE_HOME/webdata` or `~/.local/state/webdata`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state'), 'webdata');
}

/** The defaults of every setting. */
export function defaultConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    host: '127.0.0.1',
    port: 8787,
    dataDir: defaultDataDir(),
    workerConcurrency: 8,
    // One converter thread when there is a second core: conversion is a crawl's largest CPU cost.
    convertThreads: availableParallelism() > 1 ? 1 : 0,
    runWorkers: true,
    serveApi: true,
    databasePoolSize: 10,
    leaseMs: 30_000,
    maxPageStarts: MAX_PAGE_STARTS,
    allowPrivateNetworks: false,
    userAgent: 'webdata/0.1 (+https://github.com/webdata; self-hosted Web Data Service)',
    pageTimeoutMs: LIMITS.pageTimeoutMs,
    connectTimeoutMs: 10_000,
    maxDownloadBytes: LIMITS.maxDownloadBytes,
    maxRedirects: 5,
    perHostConcurrency: 4,
    perHostDelayMs: 0,
    maxBodyBytes: LIMITS.maxBodyBytes,
    rateLimitPerSecond: LIMITS.rateLimitPerSecond,
    rateLimitBurst: LIMITS.rateLimitBurst,
    authFailureRatePerSecond: 5,
    authFailureBurst: 20,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    deepCrawlCeiling: LIMITS.defaultDeepCrawlCeiling,
    maxActiveRunsPerOwner: MAX_ACTIVE_RUNS_PER_OWNER,
    signedUrlTtlSeconds: LIMITS.signedUrlTtlSeconds,
    schemaBudgetMs: 5000,
    screenshotConcurrency: 2,
    screenshotMemoryLimitMb: 1024,
    searchMemoryMb: 512,
    logLevel: 'info',
    validateResponses: false,
    ...overrides,
  };
}
