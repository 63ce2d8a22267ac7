import type { Result } from './run-types.js';

/** What can be done about a failed page, from its error's code (and its HTTP status). */
export interface FailureRemedy {
  /** Whether the page run again as it was asked may succeed: only then is Retry offered. */
  mayPass: boolean;
  /** What to do instead, in a sentence for the message; none when running it again is the answer. */
  advice?: string | undefined;
  /**
   * The action that mends it: ask for the extraction again (other fields, another query), or open
   * the page in the browser (to see it is missing, or asks for a login).
   */
  fix?: 'extractAgain' | 'openPage' | undefined;
}

/** HTTP statuses of a page that may answer otherwise later: timeouts, too many requests, server errors. */
function statusMayPass(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/**
 * Whether a failed page can succeed run again as asked, and what to do when it cannot, from its
 * error's `code` (the contract's page error codes) and `http_status`. A page refused as a private
 * address, missing (404), behind a login (401, 403), kept out by robots.txt, over the service's
 * size limits or not stating what was asked fails the same way each time: the messages offered
 * Retry alone, which only repeated it.
 * A code this client does not know, and a failure of the moment (no answer, a timeout, a crash, a
 * server error), may pass.
 *
 * @example
 * ```ts
 * failureRemedy({ status: 'failed', error: { code: 'http_error' }, http_status: 404 });
 * // { mayPass: false, advice: 'No page is at this address: check the URL.', fix: 'openPage' }
 * failureRemedy({ status: 'failed', error: { code: 'timeout' } }); // { mayPass: true }
 * ```
 */
export function failureRemedy(result: Pick<Result, 'error' | 'http_status'>): FailureRemedy {
  const status = typeof result.http_status === 'number' ? result.http_status : undefined;
  switch (result.error?.code) {
    case 'unprocessable_url':
      return {
        mayPass: false,
        advice:
          'The service does not fetch this address (a private or local one is refused unless the service was started with --allow-private-networks).',
      };
    case 'robots_disallowed':
      return { mayPass: false, advice: "The site's robots.txt keeps crawlers out of this page." };
    case 'extraction_failed':
      return {
        mayPass: false,
        advice: 'The page does not state what was asked: extract again with other fields or another query.',
        fix: 'extractAgain',
      };
    case 'too_large':
      return {
        mayPass: false,
        advice:
          "It is larger than the service's limits for a page (its download, conversion or screenshot memory; WEBDATA_MAX_DOWNLOAD_BYTES on the service).",
      };
    case 'unsupported_content':
      return { mayPass: false, advice: 'It is not a page the service reads (HTML, text, JSON or XML).' };
    case 'too_many_redirects':
      return { mayPass: false, advice: 'Its redirects go on past the limit.', fix: 'openPage' };
    case 'http_error':
      if (status === 401 || status === 403 || status === 407)
        return {
          mayPass: false,
          advice: `The site asks for a login the service does not have (HTTP ${status}).`,
          fix: 'openPage',
        };
      if (status === 404 || status === 410)
        return { mayPass: false, advice: 'No page is at this address: check the URL.', fix: 'openPage' };
      if (status !== undefined && !statusMayPass(status)) return { mayPass: false };
      return { mayPass: true };
    default:
      return { mayPass: true };
  }
}
