import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { create as createTar } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.js';
import { PageError } from '../errors.js';
import { chromiumCacheRoot, findBundledChromium, unpackChromium } from './bundled-chromium.js';
import { locateChromium } from './chromium-locator.js';
import { decodePng } from './png.js';
import { ScreenshotService } from './screenshot-service.js';

/** A package laid out like @sparticuz/chromium, with a shell script standing in for the browser. */
function fakePackage(root: string): string {
  const packageDir = join(root, 'package');
  const bin = join(packageDir, 'bin');
  const staging = join(root, 'staging');
  mkdirSync(join(staging, 'lib'), { recursive: true });
  mkdirSync(join(staging, 'fonts', 'Open_Sans'), { recursive: true });
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(packageDir, 'package.json'),
    JSON.stringify({ name: '@sparticuz/chromium', version: '1.2.3' }),
  );
  writeFileSync(join(bin, 'chromium.br'), brotliCompressSync('#!/bin/sh\necho fake chromium "$@"\n'));
  writeFileSync(join(staging, 'lib', 'libnss3.so'), 'not really a library');
  writeFileSync(join(staging, 'fonts', 'Open_Sans', 'OpenSans-Regular.ttf'), 'not really a font');
  writeFileSync(join(staging, 'fonts.conf'), '<fontconfig><dir>/tmp/fonts</dir></fontconfig>');
  createTar({ file: join(bin, 'al2023.tar.br'), cwd: staging, brotli: true, sync: true }, ['lib']);
  createTar({ file: join(bin, 'fonts.tar.br'), cwd: staging, brotli: true, sync: true }, [
    'fonts',
    'fonts.conf',
  ]);
  return packageDir;
}

/** A process id that is certainly not running (a child that has exited). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid as number;
}

describe('findBundledChromium', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'webdata-bundled-test-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is there only on Linux x64, and says so elsewhere', () => {
    for (const [platform, arch] of [
      ['darwin', 'arm64'],
      ['linux', 'arm64'],
      ['win32', 'x64'],
    ] as const) {
      const none = findBundledChromium({ platform, arch, packageDir: fakePackage(root) });
      expect('reason' in none && none.reason).toBe(
        `the bundled Chromium (@sparticuz/chromium) runs on Linux x64 only, not ${platform} ${arch}`,
      );
    }
  });

  it('says when the package was not installed', () => {
    const none = findBundledChromium({ platform: 'linux', arch: 'x64', packageDir: null });
    expect('reason' in none && none.reason).toMatch(/not installed; pnpm install adds it/);
  });

  it('unpacks into a folder named after the version, with its libraries and a fonts.conf for that folder', async () => {
    const cacheRoot = join(root, 'cache-a');
    const found = findBundledChromium({
      platform: 'linux',
      arch: 'x64',
      packageDir: fakePackage(root),
      cacheRoot,
    });
    if ('reason' in found) throw new Error(found.reason);
    expect(found.directory).toBe(join(cacheRoot, 'chromium-1.2.3-x64'));
    const [first, second] = await Promise.all([found.prepare(), found.prepare()]);
    expect(second).toEqual(first);
    expect(first.path).toBe(join(found.directory, 'chromium'));
    expect(spawnSync(first.path, ['--version'], { encoding: 'utf8' }).stdout).toBe(
      'fake chromium --version\n',
    );
    expect(first.env.LD_LIBRARY_PATH?.split(':')[0]).toBe(join(found.directory, 'lib'));
    expect(readFileSync(join(found.directory, 'lib', 'libnss3.so'), 'utf8')).toBe('not really a library');
    const fontsConf = readFileSync(first.env.FONTCONFIG_FILE!, 'utf8');
    expect(fontsConf).toContain(`<dir>${join(found.directory, 'fonts')}</dir>`);
    expect(fontsConf).toContain('/etc/fonts/fonts.conf');
    expect(existsSync(join(found.directory, 'fonts', 'Open_Sans', 'OpenSans-Regular.ttf'))).toBe(true);
    expect(readdirSync(cacheRoot)).toEqual(['chromium-1.2.3-x64']);
  });

  it('lets concurrent unpackers race safely: one copy wins, no partial folder is left', async () => {
    const cacheRoot = join(root, 'cache-b');
    const bin = join(fakePackage(root), 'bin');
    const directory = join(cacheRoot, 'chromium-1.2.3-x64');
    // Not through prepare(): that shares one unpack per process; these stand for separate processes.
    const results = await Promise.all([1, 2, 3].map(() => unpackChromium(bin, directory)));
    for (const result of results) expect(result.path).toBe(join(directory, 'chromium'));
    expect(readdirSync(cacheRoot)).toEqual(['chromium-1.2.3-x64']);
    expect(spawnSync(results[0]!.path, ['ok'], { encoding: 'utf8' }).stdout).toBe('fake chromium ok\n');
  });

  it("removes folders half unpacked by a process that died, and keeps a live process's", async () => {
    const cacheRoot = join(root, 'cache-c');
    const abandoned = join(cacheRoot, `chromium-1.2.3-x64.partial-${deadPid()}-x`);
    const inProgress = join(cacheRoot, `chromium-1.2.3-x64.partial-${process.pid}-y`);
    mkdirSync(abandoned, { recursive: true });
    mkdirSync(inProgress, { recursive: true });
    writeFileSync(join(abandoned, 'chromium'), 'truncated');
    await unpackChromium(join(fakePackage(root), 'bin'), join(cacheRoot, 'chromium-1.2.3-x64'));
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(inProgress)).toBe(true);
  });

  it('unpacks under XDG_CACHE_HOME, else ~/.cache', () => {
    expect(chromiumCacheRoot({ XDG_CACHE_HOME: '/x/cache' })).toBe('/x/cache/webdata');
    expect(chromiumCacheRoot({})).toMatch(/\/\.cache\/webdata$/);
  });
});

/**
 * The real bundled Chromium, whatever else the machine has: the system's is
 * hidden from the lookup. On Linux x64 it must take screenshots, guard
 * included; elsewhere the lookup must say how to get a browser.
 */
describe('the Chromium bundled in @sparticuz/chromium', () => {
  const env = { ...process.env, WEBDATA_CHROMIUM_IGNORE_SYSTEM: '1', WEBDATA_CHROMIUM_PATH: '' };
  const supported = process.platform === 'linux' && process.arch === 'x64';
  let site: Server;
  let port: number;

  beforeAll(async () => {
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><style>html, body, h1 { margin: 0 }</style><body style="width:1280px;height:900px;background:#08c"><h1>bundled</h1>',
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    port = (site.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));
  // On a fresh machine the first use unpacks ~190 MB into the cache: 6.5 s on a loaded 2-core
  // machine, and with the launch that passed the tests' 30 s under a full suite (CI, 2026-11-27).
  // Done once here, with a hang guard of its own, so each test's 30 s is for its own work.
  beforeAll(async () => {
    const bundled = findBundledChromium({ env });
    if ('prepare' in bundled) await bundled.prepare();
  }, 180_000);

  it('is what the lookup falls back to here', () => {
    const location = locateChromium(undefined, env);
    if (supported) expect('source' in location && location.source).toBe('bundled');
    else expect('reason' in location && location.reason).toMatch(/Linux x64 only.*apt-get install chromium/);
  });

  it('takes a screenshot of a page', async () => {
    const service = new ScreenshotService(defaultConfig({ allowPrivateNetworks: true }), { env });
    try {
      if (!supported) {
        expect(await service.unavailableReason()).toMatch(/Linux x64 only/);
        return;
      }
      const png = decodePng(await service.capture(`http://127.0.0.1:${port}/`));
      expect({ width: png.width, height: png.height }).toEqual({ width: 1280, height: 900 });
    } finally {
      await service.close();
    }
  });

  it('goes through the private-address guard like any other Chromium', async () => {
    const service = new ScreenshotService(defaultConfig({ allowPrivateNetworks: false }), {
      env,
      // The guard's proxy sees loopback.test as 127.0.0.3 (loopback): the page must be refused.
      resolveAll: async () => [{ address: '127.0.0.3', family: 4 }],
    });
    try {
      const error = await service.capture(`http://loopback.test:${port}/`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PageError);
      expect((error as PageError).code).toBe(supported ? 'unprocessable_url' : 'screenshot_unavailable');
      if (supported) expect(service.launches).toBe(1);
    } finally {
      await service.close();
    }
  });
});
