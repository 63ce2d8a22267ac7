import { LIMITS, type TypedRunParams } from '@webdata/contract';
import type { FetchTextOptions, RobotsInfo } from '../fetch/types.js';
import { matchesPathGlobs, normalizeUrl, parseSitemap, siteKey } from './url/index.js';

/** A crawl or deep crawl with its params: the runs that follow links. */
export type CrawlingRun = Exclude<TypedRunParams, { type: 'extract' }>;

/** What discovery reads besides the page: sitemaps and robots rules. */
export interface CrawlFetcher {
  fetchText(url: string, options?: FetchTextOptions): Promise<string | null>;
  robotsFor(origin: string): Promise<RobotsInfo>;
}

/** A URL a crawled page led to, to be crawled in the same run. */
export interface DiscoveredUrl {
  url: string;
  /** The normalised form used to fetch each page once per run. */
  key: string;
  depth: number;
  parentUrl: string;
}

/** One crawled page, as discovery sees it. */
export interface CrawledPage {
  /** The URL the run asked for (its item's URL). */
  url: string;
  /** The URL after redirects: the parent of what it links to. */
  finalUrl: string;
  /** Links from the start page: 0 for the start page itself. */
  depth: number;
  /** The page's absolute links, in document order. */
  links: string[];
}

/**
 * Candidates checked between two turns of the event loop, at most, and the longest a turn goes on
 * checking. A page (or a sitemap) can list tens of thousands of links, each parsed, matched and
 * normalised here on the main thread: a deep crawl from a page of 50,000 links held every request
 * for 0.4 s. One link costs microseconds, but up to some tens of milliseconds against globs made
 * to be slow (`MAX_GLOB_SEARCH_SIZE`), hence the time too.
 */
const CANDIDATES_PER_TURN = 1000;
const TURN_MS = 10;

/**
 * Links longer than a client may ask for are not followed: nobody could have started a run with
 * them, and each costs its length in every check (globs, robots.txt, normalising, storing).
 */
const MAX_LINK_LENGTH = LIMITS.maxUrlLength;

/** Sitemap files read to seed one deep crawl (an index may point at many). */
const MAX_SITEMAP_FILES = 20;

/**
 * The links of a crawled page that the run should follow, and for a deep
 * crawl's first page those of its site's sitemaps: within the depth, on the
 * start page's site unless the run says otherwise, through the path globs,
 * and allowed by robots.txt when the run respects it. The run's item limit
 * and the URLs it already has are the store's to apply.
 */
export async function discoverLinks(
  fetcher: CrawlFetcher,
  run: CrawlingRun,
  page: CrawledPage,
  signal: AbortSignal,
): Promise<DiscoveredUrl[]> {
  const params = run.params;
  // A crawl of known URLs fetches exactly those; only a start URL is followed.
  if (run.type === 'crawl' && params.url === undefined) return [];
  const depth = page.depth + 1;
  if (run.type === 'deep-crawl' && depth > run.params.max_depth) return [];
  const root = params.url ?? page.url;
  const sameSite = run.type === 'deep-crawl' ? run.params.same_site : true;

  const found: DiscoveredUrl[] = [];
  const robots = new Map<string, RobotsInfo>();
  // Each link is parsed once here (the root once a page), not once for each rule it passes.
  const rootSite = sameSite ? siteKey(root) : null;
  const include = params.include_paths ?? [];
  const exclude = params.exclude_paths ?? [];
  const globs = include.length > 0 || exclude.length > 0;
  let turnStart = performance.now();
  let inTurn = 0;
  /** Checks links in turns of the event loop, adding those the run follows to `found`, up to `wanted` of them. */
  const check = async (urls: readonly string[], parentUrl: string, wanted: number) => {
    for (const url of urls) {
      if (found.length >= wanted) return;
      if (inTurn >= CANDIDATES_PER_TURN || performance.now() - turnStart >= TURN_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        signal.throwIfAborted();
        turnStart = performance.now();
        inTurn = 0;
      }
      inTurn += 1;
      if (url.length > MAX_LINK_LENGTH) continue;
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        continue; // no rule lets an invalid URL through (it is no site's, and matches no path)
      }
      if (sameSite && (rootSite === null || siteKey(parsed) !== rootSite)) continue;
      if (globs && !matchesPathGlobs(url, include, exclude)) continue;
      if (params.respect_robots) {
        const origin = parsed.origin;
        let rules = robots.get(origin);
        if (!rules) {
          rules = await fetcher.robotsFor(origin);
          robots.set(origin, rules);
        }
        if (!rules.isAllowed(url)) continue;
      }
      found.push({ url, key: normalizeUrl(url), depth, parentUrl });
    }
  };

  await check(page.links, page.finalUrl, Number.POSITIVE_INFINITY);
  if (run.type === 'deep-crawl' && page.depth === 0 && run.params.use_sitemap) {
    // Sitemaps are read one file at a time, and no further once the run has as many links as its
    // limit (beside the page's own): a site may list a million URLs (20 files of 50,000), which a
    // run of 100 pages never needs, and which took 500 MB held at once.
    const wanted = found.length + run.params.limit;
    await readSitemaps(fetcher, page.finalUrl, params.respect_robots, signal, async (urls, sitemap) => {
      await check(urls, sitemap, wanted);
      return found.length < wanted;
    });
  }
  return found;
}

/**
 * Reads the site's sitemaps (robots.txt `Sitemap:` lines, else `/sitemap.xml`), following indexes,
 * handing each file's URLs to `take` until it answers false.
 */
async function readSitemaps(
  fetcher: CrawlFetcher,
  pageUrl: string,
  respectRobots: boolean,
  signal: AbortSignal,
  take: (urls: readonly string[], sitemap: string) => Promise<boolean>,
): Promise<void> {
  const origin = new URL(pageUrl).origin;
  const robots = await fetcher.robotsFor(origin);
  const queue = robots.sitemaps.length > 0 ? [...robots.sitemaps] : [`${origin}/sitemap.xml`];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < MAX_SITEMAP_FILES) {
    const sitemap = queue.shift()!;
    if (seen.has(sitemap)) continue;
    seen.add(sitemap);
    let xml: string | null = null;
    try {
      xml = await fetcher.fetchText(sitemap, { signal, respectRobots });
    } catch {
      signal.throwIfAborted();
    }
    if (xml === null) continue;
    const parsed = await parseSitemap(xml);
    queue.push(...parsed.sitemaps);
    if (!(await take(parsed.urls, sitemap))) return;
  }
}
