/** Chromium's answer when a tab has no frame to copy yet. */
const NO_FRAME_YET = /Unable to capture screenshot/;

/**
 * Runs `capture`, and once more after `pauseMs` when Chromium answered that
 * it had no frame to copy ("Unable to capture screenshot"). That answer comes
 * when the compositor has not produced the tab's frame yet, for example the
 * first capture in a context opened a moment before; it passes by itself, so
 * failing the page for it would be wrong. Seen once in CI, in the bundled
 * Chromium, on a run's first capture in a new context; the same error is
 * reported by other CDP clients (puppeteer, chrome-remote-interface) as
 * transient. Any other error, or the same one twice, is the caller's.
 */
export async function captureRetryingNoFrame<T>(capture: () => Promise<T>, pauseMs = 100): Promise<T> {
  try {
    return await capture();
  } catch (error) {
    if (!(error instanceof Error) || !NO_FRAME_YET.test(error.message)) throw error;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    return capture();
  }
}
