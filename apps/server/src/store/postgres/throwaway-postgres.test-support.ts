import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where PostgreSQL's server programs are, and as whom to run them. */
interface PostgresInstall {
  binDir: string;
  /** Set when running as root: initdb and postgres refuse root, so they run as this user (uid, gid). */
  runAs: { user: string; uid: number; gid: number } | null;
}

/**
 * Finds the machine's PostgreSQL server programs (Debian's
 * `/usr/lib/postgresql/<major>/bin`, newest first, else `initdb` on the PATH)
 * or says why there are none. Nothing is downloaded: `.ci/run` installs
 * Debian's `postgresql` when it is missing.
 */
export function findPostgres(): PostgresInstall | { reason: string } {
  const debian = '/usr/lib/postgresql';
  const candidates = existsSync(debian)
    ? readdirSync(debian)
        .filter((major) => /^\d+$/.test(major))
        .sort((a, b) => Number(b) - Number(a))
        .map((major) => join(debian, major, 'bin'))
    : [];
  const onPath = (process.env.PATH ?? '').split(':').filter(Boolean);
  const binDir = [...candidates, ...onPath].find(
    (dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')),
  );
  if (!binDir) {
    return {
      reason:
        'no PostgreSQL server found (/usr/lib/postgresql/*/bin or initdb on PATH): apt-get install postgresql',
    };
  }
  if (process.getuid?.() !== 0) return { binDir, runAs: null };
  const passwd = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === 'postgres');
  if (!passwd) return { reason: 'running as root and there is no `postgres` user to run PostgreSQL as' };
  return { binDir, runAs: { user: 'postgres', uid: Number(passwd[2]), gid: Number(passwd[3]) } };
}

/** A PostgreSQL cluster of its own for a test or benchmark: 127.0.0.1, a free port, trust auth, fsync off. */
export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  port: number;
  /** A new, empty database on this cluster; returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server at once (as a crash or an operator would) and starts it again on the same port. */
  restart(options?: { downMs?: number }): Promise<void>;
  /** Stops the server without waiting for clients. */
  kill(): Promise<void>;
  /** Starts it again after `kill()`. */
  start(): Promise<void>;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

let databases = 0;

/**
 * Creates and starts a throwaway cluster (about one second: initdb without
 * sync, then the server with fsync off, listening on 127.0.0.1 only). Call
 * `stop()` when done; a cluster still running when the process exits is
 * stopped then.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const install = findPostgres();
  if ('reason' in install) throw new Error(install.reason);
  const as = (program: string, args: string[]): [string, string[]] =>
    install.runAs
      ? ['runuser', ['-u', install.runAs.user, '--', join(install.binDir, program), ...args]]
      : [join(install.binDir, program), args];
  const dir = mkdtempSync(join(tmpdir(), 'webdata-pg-'));
  if (install.runAs) chownSync(dir, install.runAs.uid, install.runAs.gid);
  const dataDir = join(dir, 'data');
  const log = join(dir, 'server.log');
  await run(
    ...as('initdb', [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
      '--no-instructions',
    ]),
  );

  let port = 0;
  const options = () =>
    [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      // Off by default here, as a server tuned for speed may have it: the store turns it on for its own
      // sessions, and the restart tests (an immediate stop, like a crash) show it does.
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ');
  const pgCtl = (args: string[]) => run(...as('pg_ctl', ['-D', dataDir, ...args]));
  const startServer = () => pgCtl(['-l', log, '-w', '-t', '30', '-o', options(), 'start']);
  const stopServer = (mode: 'immediate' | 'fast') => pgCtl(['-m', mode, '-w', 'stop']);

  // Another process may take the free port before the server binds it: try a few.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await startServer();
      break;
    } catch (error) {
      if (attempt >= 5) {
        const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${tail}`);
      }
    }
  }

  let running = true;
  const onExit = () => {
    if (!running) return;
    try {
      execFileSync(...as('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']), { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const kill = async () => {
    await stopServer('immediate');
    running = false;
  };
  const start = async () => {
    await startServer();
    running = true;
  };
  return {
    url,
    port,
    async createDatabase(name = `test_${process.pid}_${++databases}`) {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    kill,
    start,
    async restart({ downMs = 0 } = {}) {
      await kill();
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    async stop() {
      process.off('exit', onExit);
      if (running) await stopServer('immediate').catch(() => undefined);
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Whether this test run can use PostgreSQL. In CI (`CI` set) a missing
 * PostgreSQL is an error, so a suite cannot pass by skipping; elsewhere the
 * suite is skipped and the reason printed once.
 *
 * @example
 * ```ts
 * describe.skipIf(!postgresForTests())('PostgresStore', () => { … });
 * ```
 */
export function postgresForTests(): boolean {
  const found = findPostgres();
  if (!('reason' in found)) return true;
  if (process.env.CI) throw new Error(`PostgreSQL is required in CI: ${found.reason}`);
  console.warn(`skipping PostgreSQL tests: ${found.reason}`);
  return false;
}
