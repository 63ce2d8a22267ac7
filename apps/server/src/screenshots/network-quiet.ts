import type { Page, Request } from 'playwright-core';

/** Watches a page's requests so a capture can wait for late loads without a fixed pause. */
export interface NetworkQuiet {
  /** Requests the page has started so far, and how many of them are still in flight. */
  readonly started: number;
  readonly inFlight: number;
  /**
   * Resolves once no request has been in flight for `quietMs`, or after
   * `capMs` at the latest (long-polling pages never go quiet).
   */
  waitForQuiet(quietMs: number, capMs: number): Promise<void>;
  /** Stops counting (the tab serves another capture next). */
  stop(): void;
}

/**
 * Requests of a kind Playwright calls `other`: in Chromium the tab's icon
 * (fetched after `load` on nearly every page: `<link rel="icon">` or
 * `/favicon.ico`) and `<link rel="prefetch">` (a beacon is `ping`, not this).
 * None of them changes the page's pixels, so none is waited for (on the
 * Python manual each page's icon alone held every capture for the 200 ms
 * quiet window). They still go through the guard like every request.
 */
const NOT_PAINTED = 'other';

/**
 * Starts counting the page's requests that can change what it shows.
 * Playwright's own `networkidle` state needs 500 ms of silence; a
 * screenshot only needs the late images and fonts that follow `load`, which
 * a shorter window catches.
 */
export function trackNetwork(page: Page): NetworkQuiet {
  let inFlight = 0;
  let started = 0;
  let lastActivity = Date.now();
  const begin = (request: Request) => {
    if (request.resourceType() === NOT_PAINTED) return;
    started++;
    inFlight++;
    lastActivity = Date.now();
  };
  page.on('request', begin);
  const done = (request: Request) => {
    if (request.resourceType() === NOT_PAINTED) return;
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    stop() {
      page.off('request', begin);
      page.off('requestfinished', done);
      page.off('requestfailed', done);
    },
    get started() {
      return started;
    },
    get inFlight() {
      return inFlight;
    },
    async waitForQuiet(quietMs, capMs) {
      const giveUpAt = Date.now() + capMs;
      for (;;) {
        const now = Date.now();
        if (now >= giveUpAt) return;
        const quietFor = now - lastActivity;
        if (inFlight === 0 && quietFor >= quietMs) return;
        const wait = inFlight === 0 ? quietMs - quietFor : Math.min(quietMs, 50);
        await new Promise((resolve) => setTimeout(resolve, Math.max(10, Math.min(wait, giveUpAt - now))));
      }
    },
  };
}
