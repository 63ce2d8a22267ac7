import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/webdata-server.mjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/**
 * How to run `webdata-server`: the built server (`bin/`, as users run it) when
 * `built` is asked and a build exists, else the sources through tsx.
 */
export function serverCommand(built = false): string[] {
  return built && existsSync(BUILT) ? [BIN] : ['--conditions=source', '--import', 'tsx', MAIN];
}

/** A `webdata-server start` child process, run from the sources with tsx. */
export interface ServerProcess {
  child: ChildProcess;
  /** The API's base URL; empty for a worker-only process (`--role worker`). */
  url: string;
  /** The key printed on first start, or null when the data dir already had one. */
  apiKey: string | null;
  output: () => string;
}

/** Starts the server as a child process on an ephemeral port and waits for its URL. */
export async function spawnServer(
  dataDir: string,
  extraArgs: string[] = [],
  options: { built?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [...serverCommand(options.built), 'start', '--port', '0', '--data-dir', dataDir, ...extraArgs],
    { env: { ...process.env, WEBDATA_LOG_LEVEL: 'warn', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    out += chunk;
  });
  // Ready once the banner is complete: an API process prints its URL, then a line about its key (the key
  // itself on first start); a worker prints one line. Waiting for the key line rather than for a fixed
  // time after the URL: on a loaded machine the two lines can arrive far apart.
  const url = await new Promise<string>((resolve, reject) => {
    // Generous: several servers starting at once from the sources on a loaded two-core machine take a while.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 90 s:\n${out}`));
    }, 90_000);
    const check = () => {
      const api = /listening on (http:\/\/\S+)[^\n]*\n[\s\S]*^API keys?: [^\n]*\n/m.exec(out);
      const worker = /webdata worker is running/.test(out);
      if (api || worker) {
        clearTimeout(timer);
        resolve(api?.[1] ?? '');
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  const apiKey = /^API key: (wd_key_[0-9a-z]{26}_[A-Za-z0-9_-]{32})$/m.exec(out)?.[1] ?? null;
  return { child, url, apiKey, output: () => out };
}

/** Waits for a child process to exit. */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
