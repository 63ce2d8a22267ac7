import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './api-client.js';
import { exited, type ServerProcess, serverCommand, spawnServer } from './server-process.js';

const run = promisify(execFile);
let dataDir: string;
let server: ServerProcess;

/** Runs `webdata-server …` against the test's data dir. */
async function cli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [...serverCommand(), ...args, '--data-dir', dataDir]);
  return stdout;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'webdata-cli-'));
  server = await spawnServer(dataDir, [], { env: { WEBDATA_LOG_LEVEL: 'info' } });
});

afterAll(async () => {
  server?.child.kill('SIGTERM');
  if (server) await exited(server.child);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('webdata-server command line', () => {
  // Five command runs through tsx: on a loaded two-core machine that alone can take half a minute.
  it('prints a key on first start; keys create, list and revoke work beside a running server', {
    timeout: 120_000,
  }, async () => {
    expect(server.apiKey).toMatch(/^wd_key_/);
    const created = await cli('keys', 'create', '--name', 'ci');
    const key = /(wd_key_\S+)/.exec(created)![1]!;
    const id = /created key (key_\S+)/.exec(created)![1]!;
    const call = apiClient(server.url, key);
    expect((await call('GET', '/api/v1/runs')).status).toBe(200);
    const listed = await cli('keys', 'list');
    expect(listed).toContain(id);
    expect(listed).toContain('name=ci');
    expect(listed).not.toContain(key.slice(-20));
    expect(await cli('keys', 'revoke', id)).toContain(`revoked ${id}`);
    // Key records are cached for a second in the server.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await call('GET', '/api/v1/runs')).status).toBe(401);
    expect(await cli('keys', 'list')).toMatch(new RegExp(`${id}.*revoked=`));
  });

  it('prints the first key only on the start that made it, and names its file on later starts', {
    timeout: 120_000,
  }, async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'webdata-cli-'));
    try {
      const first = await spawnServer(fresh);
      first.child.kill('SIGTERM');
      await exited(first.child);
      expect(first.apiKey).toMatch(/^wd_key_/);
      const second = await spawnServer(fresh);
      second.child.kill('SIGTERM');
      await exited(second.child);
      expect(second.apiKey).toBeNull();
      expect(second.output()).not.toContain(first.apiKey!.slice(-20));
      expect(second.output()).toContain(join(fresh, 'first-api-key'));
      // The hint names the data directory this server uses: `keys list` alone reads another store.
      expect(second.output()).toContain(`\`webdata-server keys list --data-dir ${fresh}\``);
      expect(readFileSync(join(fresh, 'first-api-key'), 'utf8').trim()).toBe(first.apiKey);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('keys list and keys revoke on a data directory without a store say so and exit 1, making no store there', {
    timeout: 120_000,
  }, async () => {
    const empty = mkdtempSync(join(tmpdir(), 'webdata-cli-'));
    try {
      for (const args of [
        ['keys', 'list'],
        ['keys', 'revoke', 'key_x'],
      ]) {
        const failed = await run(process.execPath, [...serverCommand(), ...args, '--data-dir', empty]).then(
          () => null,
          (error: { code: number; stdout: string; stderr: string }) => error,
        );
        expect(failed, args.join(' ')).not.toBeNull();
        expect(failed!.code).toBe(1);
        expect(failed!.stderr).toBe(
          `webdata-server: no store in ${empty} (no webdata.sqlite): give the --data-dir (or --database-url) the server runs with\n`,
        );
        expect(existsSync(join(empty, 'webdata.sqlite'))).toBe(false);
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('refuses an unknown command, an unknown option and a bad setting with exit 2, the reason and the usage', {
    timeout: 120_000,
  }, async () => {
    const refused = (...args: string[]) =>
      run(process.execPath, [...serverCommand(), ...args, '--data-dir', dataDir]).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
    for (const [args, reason] of [
      [['keys', 'make'], 'webdata-server: unknown command "keys make"'],
      [
        ['keys', 'revoke'],
        'webdata-server: keys revoke needs the KEY_ID to revoke (webdata-server keys list shows them)',
      ],
      [['start', '--prot', '1'], "webdata-server: Unknown option '--prot'"],
      [['start', '--port', 'abc'], 'webdata-server: port must be a whole number from 0 to 65535, got "abc"'],
    ] as const) {
      const { code, stderr } = await refused(...args);
      expect({ code, reason: stderr.split('\n')[0] }).toEqual({
        code: 2,
        reason: expect.stringContaining(reason),
      });
      expect(stderr).toContain('webdata-server keys create');
    }
    // keys commands name the store they wrote to: a key made in another data directory is a key the server never sees.
    expect(await cli('keys', 'create', '--name', 'where')).toContain(
      `in SQLite ${join(dataDir, 'webdata.sqlite')}:`,
    );
  });

  it('says why a database it cannot reach was not reached, and exits 1', { timeout: 120_000 }, async () => {
    // Port 1 of 127.0.0.1: nothing listens there, so the connection is refused at once.
    const unreachable = 'postgres://webdata@127.0.0.1:1/webdata';
    for (const args of [
      ['keys', 'list'],
      ['start', '--port', '0'],
    ]) {
      const failed = await run(process.execPath, [
        ...serverCommand(),
        ...args,
        '--data-dir',
        dataDir,
        '--database-url',
        unreachable,
      ]).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
      // Was only "storage is unavailable for a moment; try again", the cause dropped.
      expect({ args, code: failed.code, stderr: failed.stderr.trim() }).toEqual({
        args,
        code: 1,
        stderr:
          'webdata-server: storage is unavailable for a moment; try again: connect ECONNREFUSED 127.0.0.1:1',
      });
    }
  });

  it('logs requests without ever writing an API key into the log', async () => {
    const call = apiClient(server.url, server.apiKey!);
    await call('GET', '/api/v1/runs?limit=1');
    await apiClient(server.url, `${server.apiKey!.slice(0, -1)}${server.apiKey!.endsWith('x') ? 'y' : 'x'}`)(
      'GET',
      '/api/v1/runs',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = server.output().replace(server.apiKey!, '<printed at start>');
    expect(log).toMatch(/"url":"\/api\/v1\/runs\?limit=1"/);
    // The key's last 20 characters (its secret part; splitting at '_' failed when the random part held one at its end).
    expect(log).not.toContain(server.apiKey!.slice(-20));
    expect(log).not.toMatch(/"x-api-key"/i);
  });
});
