// Not through screenshots/index.ts: global setup runs outside the test runner's `source` resolution.
import { locateChromium } from '../src/screenshots/chromium-locator.js';

/**
 * Runs once before the test files: says which Chromium the screenshot tests
 * use (the server's own lookup, so `WEBDATA_CHROMIUM_IGNORE_SYSTEM=1` shows the
 * bundled one) and unpacks a bundled one here, once, rather than in every
 * test worker at the same moment.
 */
export default async function setup(): Promise<void> {
  const chromium = locateChromium(undefined);
  if ('reason' in chromium) {
    console.log(`screenshot tests: no Chromium: ${chromium.reason}`);
    return;
  }
  await chromium.prepare();
  console.log(`screenshot tests use ${chromium.description}`);
}
