/** Playwright's error when the page navigated away while a script ran in it. */
const NAVIGATED_AWAY = /Execution context was destroyed/;

/** The pause before `settle`: Playwright's client may not have heard of the navigation yet, and answer at once from the last document's `load`. */
const NAVIGATION_PAUSE_MS = 50;

/**
 * Runs `evaluate` in a page that has loaded, and when the page navigated away
 * meanwhile, waits a moment and then with `settle` for the next document's
 * `load`, and runs it again there, at most `maxNavigations` times (`evaluate`
 * should itself wait for its document's load: `settle` may still answer from
 * the last one's). Pages that send the reader on
 * as soon as they load (a `<meta http-equiv="refresh" content="0; url=…">`
 * stub, as Texinfo writes one for every index entry; a script that sets
 * `location`) are captured where they lead, as an HTTP redirect is, instead of
 * failing with Playwright's "Execution context was destroyed" when the
 * navigation lands between `load` and the script. Any other error, or one
 * navigation more, is the caller's.
 */
export async function evaluateFollowingNavigations<T>(
  evaluate: () => Promise<T>,
  settle: () => Promise<unknown>,
  maxNavigations = 5,
  pauseMs = NAVIGATION_PAUSE_MS,
): Promise<T> {
  for (let navigations = 0; ; navigations++) {
    try {
      return await evaluate();
    } catch (error) {
      if (navigations >= maxNavigations || !(error instanceof Error) || !NAVIGATED_AWAY.test(error.message))
        throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      await settle();
    }
  }
}
