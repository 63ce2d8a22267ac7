import { type CompiledGlob, compileGlob, globMatches, globSearchSize } from './glob-matcher.js';

/**
 * The most glob program a run's `include_paths` and `exclude_paths` may hold past each glob's plain
 * start (about one instruction a character, two for a `*`, `**` or brace): a link's path is matched
 * in at most this many steps a character, so one link of 2,048 characters against globs made to be
 * slow costs some tens of milliseconds, not seconds.
 */
export const MAX_GLOB_SEARCH_SIZE = 2048;

/** The search size of a list of globs, as {@link MAX_GLOB_SEARCH_SIZE} bounds it. */
export function pathGlobsSearchSize(patterns: readonly string[]): number {
  let size = 0;
  for (const pattern of patterns) size += globSearchSize(compiledGlob(pattern));
  return size;
}

/**
 * True when the URL's path passes a crawl's path filters: it matches one of
 * `include` (an empty list includes every path) and none of `exclude`
 * (exclude wins). Patterns are globs over the path only (no host, no
 * query; syntax in `glob-matcher.ts`, matched in time linear in the path's
 * length); a leading `/` is optional in patterns, `*` stays within one
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

const compiled = new Map<string, CompiledGlob>();

/** A pattern without its surrounding white space and leading and trailing slashes. */
const barePattern = (pattern: string) => pattern.trim().replace(/^\/+/, '').replace(/\/+$/, '');

function compiledGlob(pattern: string): CompiledGlob {
  const bare = barePattern(pattern);
  let glob = compiled.get(bare);
  if (glob === undefined) {
    glob = compileGlob(bare);
    // Crawls reuse a handful of patterns; the cap only guards against unbounded growth.
    if (compiled.size > 1000) compiled.clear();
    compiled.set(bare, glob);
  }
  return glob;
}

function matchesPattern(pattern: string, path: string): boolean {
  if (path === '') {
    const bare = barePattern(pattern);
    return bare === '' || bare === '*' || bare === '**';
  }
  return globMatches(compiledGlob(pattern), path);
}
