import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultConfig } from '../src/config.js';
import { readPngSize } from '../src/screenshots/png.js';
import { ScreenshotService } from '../src/screenshots/screenshot-service.js';

/** A page of fixed size (1280×2000), like a typical article, served by the bench itself. */
const BENCH_PAGE = `<!doctype html><html><head><title>bench</title><style>
html, body, h1, p { margin: 0; padding: 0; }
body { width: 1280px; height: 2000px; font: 16px/1.5 sans-serif; background: #fafafa; }
</style></head><body><h1>Screenshot bench</h1>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(40)}</body></html>`;

/**
 * Screenshots per second for `n` captures of a loopback page, with the
 * default concurrency (after one warm-up capture that launches the browser).
 * Uses the system's Chromium as the server would find it; throws when none.
 */
export async function benchScreenshots(n: number, options: { chromiumPath?: string } = {}): Promise<number> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(BENCH_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // The page is on loopback, so private networks must be allowed for this one service.
  const service = new ScreenshotService(
    defaultConfig({ chromiumPath: options.chromiumPath, allowPrivateNetworks: true }),
  );
  try {
    const reason = await service.unavailableReason();
    if (reason) throw new Error(reason);
    await service.capture(url); // warm-up: browser launch is not what we measure
    const started = performance.now();
    const pngs = await Promise.all(Array.from({ length: n }, (_, i) => service.capture(`${url}?${i}`)));
    const seconds = (performance.now() - started) / 1000;
    for (const png of pngs) {
      const { height } = readPngSize(png);
      if (height !== 2000) throw new Error(`bench page rendered ${height} px high, expected 2000`);
    }
    return n / seconds;
  } finally {
    await service.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
