import { accessSync, constants, statSync } from 'node:fs';
import { type BundledChromium, findBundledChromium, type LaunchableChromium } from './bundled-chromium.js';

/** Where Chromium or Chrome is usually installed, in the order they are tried. */
export const CHROMIUM_CANDIDATES: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/** Environment variable naming the Chromium executable when the config does not. */
export const CHROMIUM_PATH_ENV = 'WEBDATA_CHROMIUM_PATH';

/**
 * Environment variable that hides the system's Chromium from the lookup
 * (`1`), so the bundled one is used even where a system one is installed:
 * CI proves with it that a machine without a browser takes screenshots.
 */
export const CHROMIUM_IGNORE_SYSTEM_ENV = 'WEBDATA_CHROMIUM_IGNORE_SYSTEM';

/** A Chromium the lookup found. */
export interface FoundChromium {
  /** Which step of the lookup found it. */
  source: 'configured' | 'system' | 'bundled';
  /** One line for people, e.g. `/usr/bin/chromium (system)`. */
  description: string;
  /** The executable and its environment; unpacks the bundled Chromium on first call. */
  prepare(): Promise<LaunchableChromium>;
}

/** The Chromium to launch, or why there is none and how to get one. */
export type ChromiumLocation = FoundChromium | { reason: string };

/** How the lookup looks at the machine; tests replace these. */
export interface ChromiumProbes {
  /** Whether a path is an executable file (default {@link isExecutableFile}). */
  isExecutable?: (path: string) => boolean;
  /** The bundled Chromium or why there is none (default {@link findBundledChromium}). */
  bundled?: () => BundledChromium | { reason: string };
}

/** Whether `path` is a regular file this process may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const INSTALL_HINT = `install Chromium (apt-get install chromium, or your system's package) or set ${CHROMIUM_PATH_ENV}`;

function atPath(path: string, source: 'configured' | 'system', description: string): FoundChromium {
  return { source, description, prepare: async () => ({ path, env: {} }) };
}

/**
 * Finds Chromium, in this order:
 * 1. the configured path (`chromiumPath`, which `WEBDATA_CHROMIUM_PATH` sets),
 *    else `WEBDATA_CHROMIUM_PATH` itself: only that path, so a typo is
 *    reported rather than silently replaced;
 * 2. the system's Chromium or Chrome at the usual paths
 *    ({@link CHROMIUM_CANDIDATES}), unless `WEBDATA_CHROMIUM_IGNORE_SYSTEM=1`;
 * 3. the Chromium bundled in the `@sparticuz/chromium` package (Linux x64).
 *
 * Looks only; nothing is unpacked or launched until `prepare()`.
 */
export function locateChromium(
  configuredPath: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  probes: ChromiumProbes = {},
): ChromiumLocation {
  const isExecutable = probes.isExecutable ?? isExecutableFile;
  if (configuredPath) {
    return isExecutable(configuredPath)
      ? atPath(configuredPath, 'configured', `${configuredPath} (configured)`)
      : {
          reason: `Chromium was not found at the configured path ${configuredPath}; ${INSTALL_HINT} or fix chromiumPath`,
        };
  }
  const fromEnv = env[CHROMIUM_PATH_ENV];
  if (fromEnv) {
    return isExecutable(fromEnv)
      ? atPath(fromEnv, 'configured', `${fromEnv} (from ${CHROMIUM_PATH_ENV})`)
      : { reason: `Chromium was not found at ${fromEnv} (from ${CHROMIUM_PATH_ENV}); ${INSTALL_HINT}` };
  }
  const ignoreSystem = env[CHROMIUM_IGNORE_SYSTEM_ENV] === '1';
  if (!ignoreSystem) {
    const found = CHROMIUM_CANDIDATES.find((candidate) => isExecutable(candidate));
    if (found) return atPath(found, 'system', `${found} (system)`);
  }
  const bundled = (probes.bundled ?? (() => findBundledChromium({ env })))();
  if ('reason' in bundled) {
    const looked = ignoreSystem
      ? `the system's was ignored (${CHROMIUM_IGNORE_SYSTEM_ENV}=1)`
      : `looked in ${CHROMIUM_CANDIDATES.join(', ')}`;
    return { reason: `Chromium was not found (${looked}; ${bundled.reason}); ${INSTALL_HINT}` };
  }
  return {
    source: 'bundled',
    description: `Chromium ${bundled.version} bundled in @sparticuz/chromium (unpacked in ${bundled.directory})`,
    prepare: bundled.prepare,
  };
}
