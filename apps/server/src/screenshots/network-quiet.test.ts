import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchTestChromium } from '../../test/chromium.js';
import { trackNetwork } from './network-quiet.js';

/**
 * A page with a prefetch that never answers and an image loaded after its
 * load event. Playwright calls a prefetch `other`, as it calls the tab's
 * icon; the prefetch stands in for the icon because every Chromium asks for
 * it, while the bundled headless build never fetches icons.
 */
const PAGE = `<!doctype html><html><head><link rel="prefetch" href="/prefetch.txt"></head><body>
<script>addEventListener('load', () => { const img = new Image(); img.src = '/late.svg'; document.body.append(img); });</script>
</body></html>`;
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>';

describe('trackNetwork with the real Chromium', () => {
  let server: Server;
  let browser: Browser;
  let prefetchAsked: () => void = () => undefined;
  const prefetchRequested = new Promise<void>((resolve) => {
    prefetchAsked = resolve;
  });

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/prefetch.txt') return prefetchAsked(); // never answered: in flight for good
      if (req.url === '/late.svg') {
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        return res.end(SVG);
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    browser = await launchTestChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("counts what the page shows (its late image) but not a request of kind 'other', which never changes the page's pixels", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const network = trackNetwork(page);
      const lateImage = page.waitForEvent('requestfinished', (r) => r.url().endsWith('/late.svg'));
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { waitUntil: 'load' });
      await lateImage;
      await prefetchRequested; // the browser asked for it, and it is still unanswered
      expect(network.started).toBe(2); // the document and the late image
      expect(network.inFlight).toBe(0);
    } finally {
      await context.close();
    }
  });
});
