/**
 * A count with its noun, singular for one (`1 page`, `3 pages`, `0 URLs`):
 * the nouns the extension counts (page, run, site, URL) all take an `s`.
 *
 * @example
 * ```ts
 * countOf(1, 'page'); // '1 page'
 * countOf(300, 'URL'); // '300 URLs'
 * ```
 */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
