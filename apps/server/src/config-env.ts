import { defaultConfig, type LlmSettings, type ServerConfig } from './config.js';
import { ServiceError } from './errors.js';

/** Flags of `webdata-server start` that override the environment. */
export interface ConfigFlags {
  port?: string | undefined;
  host?: string | undefined;
  dataDir?: string | undefined;
  allowPrivateNetworks?: boolean | undefined;
  workers?: string | undefined;
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

function boolean(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return /^(1|true|yes|on)$/i.test(value);
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
  const chosen: Partial<ServerConfig> = {
    host: flags.host ?? env.WEBDATA_HOST,
    port: integer('port', flags.port ?? env.WEBDATA_PORT, 0, 65535),
    dataDir: flags.dataDir ?? env.WEBDATA_DATA_DIR,
    publicUrl: env.WEBDATA_PUBLIC_URL,
    allowPrivateNetworks: flags.allowPrivateNetworks ?? boolean(env.WEBDATA_ALLOW_PRIVATE_NETWORKS),
    workerConcurrency: integer('workers', flags.workers ?? env.WEBDATA_WORKERS, 1, 256),
    convertThreads: integer('WEBDATA_CONVERT_THREADS', env.WEBDATA_CONVERT_THREADS, 0, 64),
    runWorkers: boolean(env.WEBDATA_RUN_WORKERS),
    pageTimeoutMs: integer('WEBDATA_PAGE_TIMEOUT_MS', env.WEBDATA_PAGE_TIMEOUT_MS, 1000, 600_000),
    maxDownloadBytes: integer('WEBDATA_MAX_DOWNLOAD_BYTES', env.WEBDATA_MAX_DOWNLOAD_BYTES, 1024, 1024 ** 3),
    perHostConcurrency: integer('WEBDATA_PER_HOST_CONCURRENCY', env.WEBDATA_PER_HOST_CONCURRENCY, 1, 64),
    perHostDelayMs: integer('WEBDATA_PER_HOST_DELAY_MS', env.WEBDATA_PER_HOST_DELAY_MS, 0, 60_000),
    rateLimitPerSecond: integer('WEBDATA_RATE_LIMIT', env.WEBDATA_RATE_LIMIT, 1, 1_000_000),
    rateLimitBurst: integer('WEBDATA_RATE_BURST', env.WEBDATA_RATE_BURST, 1, 1_000_000),
    deepCrawlCeiling: integer('WEBDATA_DEEP_CRAWL_CEILING', env.WEBDATA_DEEP_CRAWL_CEILING, 1, 1_000_000),
    signedUrlTtlSeconds: integer('WEBDATA_SIGNED_URL_TTL', env.WEBDATA_SIGNED_URL_TTL, 1, 7 * 24 * 3600),
    chromiumPath: env.WEBDATA_CHROMIUM_PATH,
    screenshotConcurrency: integer(
      'WEBDATA_SCREENSHOT_CONCURRENCY',
      env.WEBDATA_SCREENSHOT_CONCURRENCY,
      1,
      32,
    ),
    logLevel: env.WEBDATA_LOG_LEVEL,
    llm,
  };
  const defined = Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined));
  return defaultConfig(defined);
}
