import {
  type BlobSettings,
  defaultConfig,
  type EmbeddingsSettings,
  type LlmSettings,
  type ServerConfig,
} from './config.js';
import { ServiceError } from './errors.js';

/** Flags of `webdata-server start` that override the environment. */
export interface ConfigFlags {
  port?: string | undefined;
  host?: string | undefined;
  dataDir?: string | undefined;
  allowPrivateNetworks?: boolean | undefined;
  workers?: string | undefined;
  role?: string | undefined;
  databaseUrl?: string | undefined;
}

/** What each `--role` runs: the API, the workers, or both (the default). */
const ROLES = {
  all: { serveApi: true, runWorkers: true },
  api: { serveApi: true, runWorkers: false },
  worker: { serveApi: false, runWorkers: true },
} as const;

function role(value: string | undefined): (typeof ROLES)[keyof typeof ROLES] | undefined {
  if (value === undefined || value === '') return undefined;
  if (!Object.hasOwn(ROLES, value)) {
    throw new ServiceError('invalid_request', `role must be one of all, api, worker, got "${value}"`);
  }
  return ROLES[value as keyof typeof ROLES];
}

/**
 * Where blobs go: `WEBDATA_BLOB_DIR` (a folder every process can reach), or
 * `WEBDATA_BLOB_URL=s3://bucket/prefix` with `WEBDATA_S3_ENDPOINT`,
 * `WEBDATA_S3_REGION` and the usual `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`.
 */
function blobSettings(env: NodeJS.ProcessEnv): BlobSettings | undefined {
  const url = env.WEBDATA_BLOB_URL;
  if (url) {
    const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
    const endpoint = env.WEBDATA_S3_ENDPOINT;
    const accessKeyId = env.AWS_ACCESS_KEY_ID;
    const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
    if (!match || !endpoint || !accessKeyId || !secretAccessKey) {
      throw new ServiceError(
        'invalid_request',
        'WEBDATA_BLOB_URL must look like s3://bucket/prefix, with WEBDATA_S3_ENDPOINT, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY set',
      );
    }
    return {
      kind: 's3',
      endpoint,
      bucket: match[1]!,
      prefix: match[2] || undefined,
      region: env.WEBDATA_S3_REGION,
      accessKeyId,
      secretAccessKey,
    };
  }
  return env.WEBDATA_BLOB_DIR ? { kind: 'directory', path: env.WEBDATA_BLOB_DIR } : undefined;
}

function integer(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ServiceError(
      'invalid_request',
      `${name} must be a whole number from ${min} to ${max}, got "${value}"`,
    );
  }
  return n;
}

/**
 * A switch: `1`, `true`, `yes`, `on` or their opposites. Anything else stops
 * the server naming the variable: a mistyped `WEBDATA_ALLOW_PRIVATE_NETWORKS`
 * must not quietly mean off (or on).
 */
function boolean(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ServiceError(
    'invalid_request',
    `${name} must be 1, true, yes, on or 0, false, no, off, got "${value}"`,
  );
}

/** The URL clients reach the server at: signed screenshot URLs and the served OpenAPI document's server URL are built on it, so it must be one. */
function publicUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ServiceError(
      'invalid_request',
      `WEBDATA_PUBLIC_URL must be an absolute http:// or https:// URL, got "${value}"`,
    );
  }
  return value;
}

/** pino's levels; an unknown one would otherwise fail inside the logger, without the variable's name. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!LOG_LEVELS.includes(value)) {
    throw new ServiceError(
      'invalid_request',
      `WEBDATA_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`,
    );
  }
  return value;
}

/**
 * The server's settings from the environment (`WEBDATA_*`) and flags, on top
 * of the defaults. Each variable is listed in the package README.
 */
export function loadConfig(env: NodeJS.ProcessEnv, flags: ConfigFlags = {}): ServerConfig {
  const llm: LlmSettings | undefined = env.WEBDATA_LLM_BASE_URL
    ? {
        baseUrl: env.WEBDATA_LLM_BASE_URL,
        model: env.WEBDATA_LLM_MODEL ?? 'gpt-4o-mini',
        apiKey: env.WEBDATA_LLM_API_KEY,
        timeoutMs: integer('WEBDATA_LLM_TIMEOUT_MS', env.WEBDATA_LLM_TIMEOUT_MS, 1000, 600_000) ?? 60_000,
      }
    : undefined;
  const embeddings: EmbeddingsSettings | undefined = env.WEBDATA_EMBEDDINGS_BASE_URL
    ? {
        baseUrl: env.WEBDATA_EMBEDDINGS_BASE_URL,
        model: env.WEBDATA_EMBEDDINGS_MODEL ?? 'text-embedding-3-small',
        apiKey: env.WEBDATA_EMBEDDINGS_API_KEY,
        timeoutMs:
          integer('WEBDATA_EMBEDDINGS_TIMEOUT_MS', env.WEBDATA_EMBEDDINGS_TIMEOUT_MS, 1000, 600_000) ??
          30_000,
      }
    : undefined;
  const roleSettings = role(flags.role ?? env.WEBDATA_ROLE);
  const databaseUrl = flags.databaseUrl ?? env.WEBDATA_DATABASE_URL;
  if (databaseUrl !== undefined && databaseUrl !== '' && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ServiceError(
      'invalid_request',
      'the database URL must start with postgres:// or postgresql://',
    );
  }
  const chosen: Partial<ServerConfig> = {
    host: flags.host ?? env.WEBDATA_HOST,
    port: integer('port', flags.port ?? env.WEBDATA_PORT, 0, 65535),
    dataDir: flags.dataDir ?? env.WEBDATA_DATA_DIR,
    publicUrl: publicUrl(env.WEBDATA_PUBLIC_URL),
    allowPrivateNetworks:
      flags.allowPrivateNetworks ??
      boolean('WEBDATA_ALLOW_PRIVATE_NETWORKS', env.WEBDATA_ALLOW_PRIVATE_NETWORKS),
    workerConcurrency: integer('workers', flags.workers ?? env.WEBDATA_WORKERS, 1, 256),
    convertThreads: integer('WEBDATA_CONVERT_THREADS', env.WEBDATA_CONVERT_THREADS, 0, 64),
    runWorkers: roleSettings?.runWorkers ?? boolean('WEBDATA_RUN_WORKERS', env.WEBDATA_RUN_WORKERS),
    serveApi: roleSettings?.serveApi,
    databaseUrl: databaseUrl || undefined,
    blobs: blobSettings(env),
    databasePoolSize: integer('WEBDATA_DATABASE_POOL_SIZE', env.WEBDATA_DATABASE_POOL_SIZE, 1, 1000),
    leaseMs: integer('WEBDATA_LEASE_MS', env.WEBDATA_LEASE_MS, 1000, 3_600_000),
    maxPageStarts: integer('WEBDATA_MAX_PAGE_STARTS', env.WEBDATA_MAX_PAGE_STARTS, 1, 1000),
    pageTimeoutMs: integer('WEBDATA_PAGE_TIMEOUT_MS', env.WEBDATA_PAGE_TIMEOUT_MS, 1000, 600_000),
    maxDownloadBytes: integer('WEBDATA_MAX_DOWNLOAD_BYTES', env.WEBDATA_MAX_DOWNLOAD_BYTES, 1024, 1024 ** 3),
    perHostConcurrency: integer('WEBDATA_PER_HOST_CONCURRENCY', env.WEBDATA_PER_HOST_CONCURRENCY, 1, 64),
    perHostDelayMs: integer('WEBDATA_PER_HOST_DELAY_MS', env.WEBDATA_PER_HOST_DELAY_MS, 0, 60_000),
    rateLimitPerSecond: integer('WEBDATA_RATE_LIMIT', env.WEBDATA_RATE_LIMIT, 1, 1_000_000),
    rateLimitBurst: integer('WEBDATA_RATE_BURST', env.WEBDATA_RATE_BURST, 1, 1_000_000),
    authFailureRatePerSecond: integer(
      'WEBDATA_AUTH_FAILURE_RATE',
      env.WEBDATA_AUTH_FAILURE_RATE,
      1,
      1_000_000,
    ),
    authFailureBurst: integer('WEBDATA_AUTH_FAILURE_BURST', env.WEBDATA_AUTH_FAILURE_BURST, 1, 1_000_000),
    headersTimeoutMs: integer('WEBDATA_HEADERS_TIMEOUT_MS', env.WEBDATA_HEADERS_TIMEOUT_MS, 1000, 600_000),
    requestTimeoutMs: integer('WEBDATA_REQUEST_TIMEOUT_MS', env.WEBDATA_REQUEST_TIMEOUT_MS, 1000, 600_000),
    deepCrawlCeiling: integer('WEBDATA_DEEP_CRAWL_CEILING', env.WEBDATA_DEEP_CRAWL_CEILING, 1, 1_000_000),
    maxActiveRunsPerOwner: integer('WEBDATA_MAX_ACTIVE_RUNS', env.WEBDATA_MAX_ACTIVE_RUNS, 1, 1_000_000),
    signedUrlTtlSeconds: integer('WEBDATA_SIGNED_URL_TTL', env.WEBDATA_SIGNED_URL_TTL, 1, 7 * 24 * 3600),
    schemaBudgetMs: integer('WEBDATA_SCHEMA_BUDGET_MS', env.WEBDATA_SCHEMA_BUDGET_MS, 100, 600_000),
    chromiumPath: env.WEBDATA_CHROMIUM_PATH,
    screenshotConcurrency: integer(
      'WEBDATA_SCREENSHOT_CONCURRENCY',
      env.WEBDATA_SCREENSHOT_CONCURRENCY,
      1,
      32,
    ),
    screenshotMemoryLimitMb: integer(
      'WEBDATA_SCREENSHOT_MEMORY_MB',
      env.WEBDATA_SCREENSHOT_MEMORY_MB,
      64,
      1_048_576,
    ),
    searchMemoryMb: integer('WEBDATA_SEARCH_MEMORY_MB', env.WEBDATA_SEARCH_MEMORY_MB, 0, 1_048_576),
    logLevel: logLevel(env.WEBDATA_LOG_LEVEL),
    llm,
    embeddings,
  };
  const defined = Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined));
  return defaultConfig(defined);
}
