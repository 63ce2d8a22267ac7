import { accessSync, constants, statSync } from 'node:fs';

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

/** The executable to launch, or why there is none. */
export type ChromiumLocation = { path: string } | { reason: string };

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

const INSTALL_HINT = `install it (apt-get install chromium) or set ${CHROMIUM_PATH_ENV}`;

/**
 * Finds Chromium: the configured path when there is one (and only it, so a
 * typo is reported rather than silently replaced), else `WEBDATA_CHROMIUM_PATH`,
 * else the usual install locations.
 */
export function locateChromium(
  configuredPath: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  isExecutable: (path: string) => boolean = isExecutableFile,
): ChromiumLocation {
  if (configuredPath) {
    return isExecutable(configuredPath)
      ? { path: configuredPath }
      : {
          reason: `Chromium was not found at the configured path ${configuredPath}; ${INSTALL_HINT} or fix chromiumPath`,
        };
  }
  const fromEnv = env[CHROMIUM_PATH_ENV];
  if (fromEnv) {
    return isExecutable(fromEnv)
      ? { path: fromEnv }
      : { reason: `Chromium was not found at ${fromEnv} (from ${CHROMIUM_PATH_ENV}); ${INSTALL_HINT}` };
  }
  const found = CHROMIUM_CANDIDATES.find((candidate) => isExecutable(candidate));
  if (found) return { path: found };
  return { reason: `Chromium was not found (looked in ${CHROMIUM_CANDIDATES.join(', ')}); ${INSTALL_HINT}` };
}
