import type { Page } from 'playwright-core';

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
}

/**
 * Starts counting the page's requests. Playwright's own `networkidle` state
 * needs 500 ms of silence; a screenshot only needs the late images and fonts
 * that follow `load`, which a shorter window catches.
 */
export function trackNetwork(page: Page): NetworkQuiet {
  let inFlight = 0;
  let started = 0;
  let lastActivity = Date.now();
  page.on('request', () => {
    started++;
    inFlight++;
    lastActivity = Date.now();
  });
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
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
