/**
 * Results in the order their URLs were given (the run's `urls`), not the
 * order the server lists them in, which is the order pages finished: a script
 * that passed `a b c` reads `a b c`. The contract gives a result no input
 * position, but it echoes the URL as given in `url`, and the run keeps its
 * `urls`. Pages a crawl found by following links come after the given ones,
 * in the server's order (a stable sort).
 */
export function inInputOrder<T extends { url?: string | undefined }>(
  results: readonly T[],
  urls: readonly string[],
): T[] {
  const position = new Map<string, number>();
  urls.forEach((url, index) => {
    if (!position.has(url)) position.set(url, index);
  });
  const rank = (result: T) => position.get(result.url ?? '') ?? urls.length;
  return [...results].sort((a, b) => rank(a) - rank(b));
}
