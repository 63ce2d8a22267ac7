import { countOf } from '../text/count-of.js';
import { shortUrl } from '../tree/describe-run.js';

/**
 * The title of the boxes asking what to do with some URLs, naming them: a box opened from a lens
 * was titled "Web Data: Extract from URLs" and did not say which page it would use.
 *
 * @example
 * ```ts
 * urlsTitle('Extract from', ['https://shop.example/p/lamp']); // 'Web Data: Extract from shop.example/p/lamp'
 * urlsTitle('Crawl', ['https://a.example/x', 'https://a.example/y', 'https://a.example/z']);
 * // 'Web Data: Crawl a.example/x and 2 more URLs'
 * ```
 */
export function urlsTitle(action: string, urls: readonly string[]): string {
  const [first] = urls;
  if (first === undefined) return `Web Data: ${action} URLs`;
  const more = urls.length > 1 ? ` and ${countOf(urls.length - 1, 'more URL')}` : '';
  return `Web Data: ${action} ${shortUrl(first)}${more}`;
}
