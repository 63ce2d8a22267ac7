/**
 * Results in the order their URLs were given (the run's `urls`), not the
 * order the service lists them in, which is the order pages finished: an
 * extraction over `a b c` lists `a b c`, as the CLI and the VS Code extension
 * show them. The contract gives a result no input position, but a result's
 * `url` is the URL as given and the run keeps its `urls`. Pages a crawl found
 * by following links come after the given ones, in the service's order (a
 * stable sort).
 *
 * @example
 * ```ts
 * inInputOrder([{ url: 'https://x/b' }, { url: 'https://x/a' }], ['https://x/a', 'https://x/b']);
 * // [{ url: 'https://x/a' }, { url: 'https://x/b' }]
 * ```
 */
export function inInputOrder<T extends { url?: string | undefined }>(
  results: readonly T[],
  urls: readonly string[] | undefined,
): T[] {
  if (!urls || urls.length === 0) return [...results];
  const rank = inputRank(urls);
  return [...results].sort((a, b) => rank(a.url) - rank(b.url));
}

/**
 * A result's place in {@link inInputOrder}'s order, by its URL: the index of
 * its URL among `urls` (the first, when given twice), `urls.length` for any
 * other (a page a crawl found); results of equal rank keep the service's
 * order. For results that come a page at a time and are not all held (Save
 * Results… in the VS Code extension writes them aside, then reads them back in this order).
 *
 * @example
 * ```ts
 * const rank = inputRank(['https://x/a', 'https://x/b']);
 * [rank('https://x/b'), rank('https://x/found'), rank(undefined)]; // [1, 2, 2]
 * ```
 */
export function inputRank(urls: readonly string[] | undefined): (url: string | undefined) => number {
  const position = new Map<string, number>();
  urls?.forEach((url, index) => {
    if (!position.has(url)) position.set(url, index);
  });
  const others = urls?.length ?? 0;
  return (url) => position.get(url ?? '') ?? others;
}
