import type { FailureRemedy } from '../runs/failure-remedy.js';

export const OPEN_PAGE = 'Open Page';
export const COPY_URL = 'Copy URL';
export const RETRY_RUN = 'Retry Run';
export const EXTRACT_AGAIN = 'Extract Again…';

/**
 * The buttons of the message saying why a page failed: what mends it first (Extract Again… with
 * other fields), the page in the browser and its address, and Retry Run only when running it again
 * may help ({@link FailureRemedy.mayPass}): a missing page, a login or a refused address offered
 * Retry Run, which failed the same way.
 *
 * @example
 * ```ts
 * failureActions({ mayPass: false, fix: 'openPage' }, true); // ['Open Page', 'Copy URL']
 * failureActions({ mayPass: true }, true); // ['Open Page', 'Copy URL', 'Retry Run']
 * ```
 */
export function failureActions(remedy: FailureRemedy, hasUrl: boolean): string[] {
  const actions: string[] = [];
  if (remedy.fix === 'extractAgain' && hasUrl) actions.push(EXTRACT_AGAIN);
  if (hasUrl) actions.push(OPEN_PAGE, COPY_URL);
  if (remedy.mayPass) actions.push(RETRY_RUN);
  return actions;
}
