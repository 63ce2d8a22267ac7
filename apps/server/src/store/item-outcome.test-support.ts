import { RUN_PARAMS } from '@webdata/contract';
import type { ItemOutcome, Store } from './store.js';

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

/**
 * A crawl run of `count` queued pages (`https://s.example/0` …) created in
 * `store` for `owner`, for engine tests that claim and finish its items.
 */
export async function queuedCrawlRun(store: Store, owner: string, count: number): Promise<string> {
  const urls = Array.from({ length: count }, (_, i) => `https://s.example/${i}`);
  const { run } = await store.createRun({
    owner,
    type: 'crawl',
    urls,
    params: RUN_PARAMS.crawl.parse({ limit: 100 }),
    items: urls.map((url) => ({ url, key: url, depth: 0 })),
  });
  return run.run.id;
}
