import type { Browser } from 'playwright-core';
import { CHROMIUM_ARGS, locateChromium } from '../src/screenshots/index.js';

/**
 * Launches the Chromium the server's own lookup finds (so a machine without
 * a system browser uses the bundled one), with the server's flags that keep it
 * off the network. For tests that drive a browser themselves; close it after.
 */
export async function launchTestChromium(): Promise<Browser> {
  const location = locateChromium(undefined);
  if ('reason' in location) throw new Error(location.reason);
  const executable = await location.prepare();
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: executable.path,
    env: { ...process.env, ...executable.env },
    args: [...CHROMIUM_ARGS],
  });
}
