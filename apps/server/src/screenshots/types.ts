/** Renders pages to PNG in a real headless Chromium; one browser shared. */
export interface ScreenshotServiceLike {
  /** Why screenshots are unavailable (no Chromium found), or null when they work. */
  unavailableReason(): Promise<string | null>;
  /** A full-page PNG of `url`. Throws PageError on failure. */
  capture(url: string, options?: { signal?: AbortSignal | undefined }): Promise<Buffer>;
  close(): Promise<void>;
}
