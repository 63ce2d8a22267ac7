import picomatch from 'picomatch';

/**
 * True when the URL's path passes a crawl's path filters: it matches one of
 * `include` (an empty list includes every path) and none of `exclude`
 * (exclude wins). Patterns are picomatch globs over the path only (no host,
 * no query); a leading `/` is optional in patterns, `*` stays within one
 * segment and `**` crosses them (`/blog/**` matches `/blog` and
 * `/blog/2024/post`). A trailing slash of the path is ignored, and the path
 * is matched percent-decoded so `/café/**` matches `/caf%C3%A9/menu`. The root
 * `/` matches the patterns `/`, `*` and `**`. An invalid URL matches nothing.
 *
 * @example
 * ```ts
 * matchesPathGlobs('https://x.org/docs/a', ['/docs/**'], ['/docs/private/**']); // true
 * ```
 */
export function matchesPathGlobs(
  url: string,
  include: readonly string[],
  exclude: readonly string[],
): boolean {
  const path = pathForMatching(url);
  if (path === null) return false;
  if (exclude.some((pattern) => matchesPattern(pattern, path))) return false;
  return include.length === 0 || include.some((pattern) => matchesPattern(pattern, path));
}

/** The path without leading and trailing slashes, percent-decoded where possible. */
function pathForMatching(url: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return null;
  }
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape: match the raw path.
  }
  return decoded.replace(/^\/+/, '').replace(/\/+$/, '');
}

const compiled = new Map<string, (path: string) => boolean>();

function matchesPattern(pattern: string, path: string): boolean {
  const bare = pattern.trim().replace(/^\/+/, '').replace(/\/+$/, '');
  if (path === '') return bare === '' || bare === '*' || bare === '**';
  let matcher = compiled.get(bare);
  if (matcher === undefined) {
    matcher = picomatch(bare, { dot: true });
    // Crawls reuse a handful of patterns; the cap only guards against unbounded growth.
    if (compiled.size > 1000) compiled.clear();
    compiled.set(bare, matcher);
  }
  return matcher(path);
}
