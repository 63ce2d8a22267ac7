/**
 * The screenshot baseline: bare playwright-core driving the Chromium the
 * server would use (same lookup, same flags), one browser, one context for
 * the job, `concurrency` tabs taking turns over the URLs, full-page PNGs cut at the
 * same height as the service's. What the service adds on top (a context per
 * page, its waits, its guard) is what the ratio shows.
 */
import { evaluateFollowingNavigations } from '../src/screenshots/follow-navigation.js';
import { CHROMIUM_ARGS, locateChromium, VIEWPORT } from '../src/screenshots/index.js';

/** The service's cap on a full-page image's height (ScreenshotService's default maxPageHeight). */
const MAX_PAGE_HEIGHT = 16_384;
const PAGE_TIMEOUT_MS = 30_000;

/** Seconds bare playwright-core takes to capture every URL (after one warm-up capture in a context of its own; the measured time includes opening the job's context and tabs), and the PNGs' total bytes. */
export async function bareScreenshots(
  urls: readonly string[],
  concurrency: number,
): Promise<{
  seconds: number;
  bytes: number;
  stepMs: { load: number; measure: number; screenshot: number };
}> {
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
    // Wall time of each step summed over the captures (two tabs overlap), as the service's stepMs.
    const stepMs = { load: 0, measure: 0, screenshot: 0 };
    const capture = async (page: import('playwright-core').Page, url: string) => {
      const from = performance.now();
      await page.goto(url, { waitUntil: 'load' });
      const loaded = performance.now();
      // As the service does: a page that sends the reader on at load is measured where it leads.
      const height = await evaluateFollowingNavigations(
        () =>
          page.evaluate(async () => {
            if (document.readyState !== 'complete')
              await new Promise((resolve) => addEventListener('load', resolve, { once: true }));
            return document.documentElement.scrollHeight;
          }),
        () => page.waitForLoadState('load'),
      );
      const measured = performance.now();
      const png = await page.screenshot({
        type: 'png',
        fullPage: true,
        ...(height > MAX_PAGE_HEIGHT
          ? { clip: { x: 0, y: 0, width: VIEWPORT.width, height: MAX_PAGE_HEIGHT } }
          : {}),
      });
      stepMs.load += loaded - from;
      stepMs.measure += measured - loaded;
      stepMs.screenshot += performance.now() - measured;
      return png.length;
    };
    const openContext = async () => {
      const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
      context.setDefaultTimeout(PAGE_TIMEOUT_MS);
      return context;
    };
    // Warm-up in a context of its own: the launch and the browser's first render are not
    // measured. The measured job opens its own context and tabs, as the service's measured
    // crawl run does (a context per run), so both start with a warm browser and a cold cache.
    const warmUp = await openContext();
    await capture(await warmUp.newPage(), urls[0]!);
    await warmUp.close();
    stepMs.load = stepMs.measure = stepMs.screenshot = 0;
    const started = performance.now();
    const context = await openContext();
    const tabs = await Promise.all(Array.from({ length: concurrency }, () => context.newPage()));
    let next = 0;
    let bytes = 0;
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
    return { seconds: (performance.now() - started) / 1000, bytes, stepMs };
  } finally {
    await browser.close();
  }
}
