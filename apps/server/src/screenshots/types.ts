/** Renders pages to PNG in a real headless Chromium; one browser shared, one context per run. */
export interface ScreenshotServiceLike {
  /** Why screenshots are unavailable (no Chromium found), or null when they work. */
  unavailableReason(): Promise<string | null>;
  /**
   * A full-page PNG of `url`. Throws PageError on failure. Captures with the
   * same `runKey` share one browser context (cache, cookies): one key per
   * crawl run, never shared between runs or owners. Captures waiting for a
   * rendering slot take turns by `owner`.
   */
  capture(
    url: string,
    options?: { signal?: AbortSignal | undefined; runKey?: string | undefined; owner?: string | undefined },
  ): Promise<Buffer>;
  close(): Promise<void>;
}
