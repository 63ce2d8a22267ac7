import type { PageErrorInfo } from '@webdata/contract';
import type { ItemOutcome } from './store.js';

/**
 * The outcome of a page that failed with nothing of it kept: its error, and the HTTP status when
 * an answer came. A page the worker could not fetch or convert, one an internal error stopped, and
 * one whose process never came back from it (crashed-outcome.ts) are all written as this.
 *
 * @example
 * ```ts
 * await store.completeItem(item, failedOutcome({ code: 'http_error', message: 'HTTP 404' }, 404));
 * ```
 */
export function failedOutcome(error: PageErrorInfo, httpStatus: number | null = null): ItemOutcome {
  return {
    status: 'failed',
    result: {
      final_url: null,
      title: null,
      http_status: httpStatus,
      content_type: null,
      data: null,
      error,
      has_screenshot: false,
      screenshot_error: null,
    },
    contents: {},
  };
}
