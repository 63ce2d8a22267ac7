/**
 * The screenshot baseline: bare playwright-core driving the Chromium the
 * server would use (same lookup, same flags), one browser, one context,
 * `concurrency` tabs taking turns over the URLs, full-page PNGs cut at the
 * same height as the service's. What the service adds on top (a context per
 * page, its waits, its guard) is what the ratio shows.
 */
import { CHROMIUM_ARGS, locateChromium, VIEWPORT } from '../src/screenshots/index.js';

/** The service's cap on a full-page image's height (ScreenshotService's default maxPageHeight). */
const MAX_PAGE_HEIGHT = 16_384;
const PAGE_TIMEOUT_MS = 30_000;

/** Seconds bare playwright-core takes to capture every URL (after one warm-up capture), and the PNGs' total bytes. */
export async function bareScreenshots(
  urls: readonly string[],
  concurrency: number,
): Promise<{ seconds: number; bytes: number }> {
  const location = locateChromium(undefined);
  if ('reason' in location) throw new Error(location.reason);
  const executable = await location.prepare();
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: executable.path,
    env: { ...process.env, ...executable.env },
    args: [...CHROMIUM_ARGS],
    timeout: PAGE_TIMEOUT_MS,
  });
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    const capture = async (page: import('playwright-core').Page, url: string) => {
      await page.goto(url, { waitUntil: 'load' });
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      const png = await page.screenshot({
        type: 'png',
        fullPage: true,
        ...(height > MAX_PAGE_HEIGHT
          ? { clip: { x: 0, y: 0, width: VIEWPORT.width, height: MAX_PAGE_HEIGHT } }
          : {}),
      });
      return png.length;
    };
    const tabs = await Promise.all(Array.from({ length: concurrency }, () => context.newPage()));
    await capture(tabs[0]!, urls[0]!); // warm-up: the launch and first render are not measured
    let next = 0;
    let bytes = 0;
    const started = performance.now();
    await Promise.all(
      tabs.map(async (tab) => {
        while (next < urls.length) {
          const url = urls[next++]!;
          // Not `bytes += await …`: that reads `bytes` before the other tab's capture adds to it.
          const size = await capture(tab, url);
          bytes += size;
        }
      }),
    );
    return { seconds: (performance.now() - started) / 1000, bytes };
  } finally {
    await browser.close();
  }
}
