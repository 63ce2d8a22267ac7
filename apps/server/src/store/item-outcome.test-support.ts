import type { ItemOutcome } from './store.js';

/**
 * A page's outcome as the engine hands it to the store, for store and engine
 * tests: a 200 with a little Markdown, or an HTTP 500; `extra` replaces
 * whole fields.
 */
export function itemOutcome(
  status: 'succeeded' | 'failed' = 'succeeded',
  extra: Partial<ItemOutcome> = {},
): ItemOutcome {
  return {
    status,
    result: {
      final_url: null,
      title: null,
      http_status: status === 'succeeded' ? 200 : 500,
      content_type: 'text/html',
      data: null,
      error: status === 'failed' ? { code: 'http_error', message: 'HTTP 500' } : null,
      has_screenshot: false,
      screenshot_error: null,
    },
    contents: status === 'succeeded' ? { markdown: '# ok' } : {},
    ...extra,
  };
}
