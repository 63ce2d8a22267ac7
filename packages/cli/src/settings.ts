import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliUsageError } from './usage-error.js';

/** Where the CLI talks to, and with which key. */
export interface CliSettings {
  baseUrl: string;
  apiKey: string;
  /** Where the key came from (`WEBDATA_API_KEY` or the config file's path), for a refused key's message. */
  apiKeyFrom: string;
}

/** The server `pnpm start` starts. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

/** The config file: `$WEBDATA_CONFIG`, else `$XDG_CONFIG_HOME/webdata/config.json` (`~/.config/…`). */
export function configPath(env: NodeJS.ProcessEnv): string {
  if (env.WEBDATA_CONFIG) return env.WEBDATA_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'webdata', 'config.json');
}

function readConfig(path: string, explicit: boolean): { baseUrl?: unknown; apiKey?: unknown } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (!explicit && (error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliUsageError(`cannot read the config file ${path}: ${(error as Error).message}`);
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    return value as { baseUrl?: unknown; apiKey?: unknown };
  } catch (error) {
    throw new CliUsageError(
      `the config file ${path} is not a JSON object like {"baseUrl": "…", "apiKey": "…"}: ${(error as Error).message}`,
    );
  }
}

/**
 * Refuses a server address that is not an absolute http(s) URL, naming where
 * it came from: otherwise the client fails later with a bare "Invalid URL"
 * (exit 1), and `example.org:8787` would not say which setting to fix.
 */
function checkBaseUrl(baseUrl: string, from: string): void {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {}
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new CliUsageError(
      `the server address ${JSON.stringify(baseUrl)} (from ${from}) is not an http:// or https:// URL, like ${DEFAULT_BASE_URL}`,
    );
  }
}

/**
 * The server and key, each from the first place that has it: the
 * `--base-url` flag, the environment (`WEBDATA_BASE_URL`, `WEBDATA_API_KEY`),
 * the config file. The key is never taken from a flag, so it stays out of
 * shell history and process lists.
 */
export function resolveSettings(
  env: NodeJS.ProcessEnv,
  flags: { baseUrl?: string | undefined },
): CliSettings {
  const path = configPath(env);
  const config = readConfig(path, Boolean(env.WEBDATA_CONFIG));
  const [baseUrl, from] =
    flags.baseUrl !== undefined
      ? [flags.baseUrl, '--base-url']
      : env.WEBDATA_BASE_URL
        ? [env.WEBDATA_BASE_URL, 'WEBDATA_BASE_URL']
        : typeof config.baseUrl === 'string'
          ? [config.baseUrl, `"baseUrl" in ${path}`]
          : [DEFAULT_BASE_URL, 'the default'];
  checkBaseUrl(baseUrl, from);
  const [apiKey, apiKeyFrom] = env.WEBDATA_API_KEY
    ? [env.WEBDATA_API_KEY, 'WEBDATA_API_KEY']
    : [typeof config.apiKey === 'string' ? config.apiKey : undefined, path];
  if (!apiKey) {
    throw new CliUsageError(
      `no API key: set WEBDATA_API_KEY, or put {"apiKey": "…"} in ${path} (pnpm start prints a key)`,
    );
  }
  return { baseUrl, apiKey, apiKeyFrom };
}
