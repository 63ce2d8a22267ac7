/**
 * The screenshot service alone, in this process: the same captures as the
 * API's crawl run (one run key, so one browser context for them, the same
 * concurrency), without the crawl around them (fetch, conversion, store,
 * the run's polling). Between bare playwright-core and the API, it tells
 * what the capture path costs apart from what the crawl costs, and its
 * step times say where a capture's time goes.
 */
import { defaultConfig } from '../src/config.js';
import { type CaptureStep, ScreenshotService } from '../src/screenshots/index.js';

/** Seconds the service takes to capture every URL (after a warm-up capture under another run key), and its step times. */
export async function serviceScreenshots(
  urls: readonly string[],
  concurrency: number,
): Promise<{ seconds: number; bytes: number; stepMs: Record<CaptureStep, number> }> {
  // The site is on 127.0.0.1, as the API bench's `--allow-private-networks`.
  const service = new ScreenshotService(
    defaultConfig({ allowPrivateNetworks: true, screenshotConcurrency: concurrency }),
  );
  try {
    const reason = await service.unavailableReason();
    if (reason) throw new Error(reason);
    // Warm-up under a run key of its own (as the API bench's warm-up run): the measured
    // captures open their own context with a cold cache.
    await service.capture(urls[0]!, { runKey: 'warm-up' });
    const before = { ...service.stepMs };
    const started = performance.now();
    const pngs = await Promise.all(urls.map((url) => service.capture(url, { runKey: 'measured' })));
    const seconds = (performance.now() - started) / 1000;
    const stepMs = Object.fromEntries(
      Object.entries(service.stepMs).map(([step, ms]) => [step, ms - before[step as CaptureStep]]),
    ) as Record<CaptureStep, number>;
    return { seconds, bytes: pngs.reduce((sum, png) => sum + png.length, 0), stepMs };
  } finally {
    await service.close();
  }
}
