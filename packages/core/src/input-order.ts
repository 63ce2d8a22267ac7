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
  const position = new Map<string, number>();
  urls.forEach((url, index) => {
    if (!position.has(url)) position.set(url, index);
  });
  const rank = (result: T) => position.get(result.url ?? '') ?? urls.length;
  return [...results].sort((a, b) => rank(a) - rank(b));
}
