import type { ContentFormat, ResultContentFormat, TypedRunParams } from '@webdata/contract';
import type { ServerConfig } from '../config.js';
import type { ConvertedPage } from '../content/types.js';
import { isSameSite, matchesPathGlobs, normalizeUrl, parseSitemap } from '../crawl/url/index.js';
import { PageError } from '../errors.js';
import type { ExtractionEngine } from '../extract/types.js';
import type { FetchedPage, FetchTextOptions, PageFetcherLike, RobotsInfo } from '../fetch/types.js';
import type { ScreenshotServiceLike } from '../screenshots/types.js';
import type { ClaimedItem, DiscoveredUrl, ItemOutcome } from '../store/store.js';
import { readRunParams } from './run-params.js';

/** The fetcher as the pipeline uses it: pages, raw text (sitemaps) and robots rules. */
export interface PipelineFetcher extends PageFetcherLike {
  fetchText(url: string, options?: FetchTextOptions): Promise<string | null>;
  robotsFor(origin: string): Promise<RobotsInfo>;
}

/** What processing a page needs. */
export interface PipelineDeps {
  config: ServerConfig;
  fetcher: PipelineFetcher;
  /** Converts a page; `html: false` when its content is not wanted as HTML. */
  convert: (page: FetchedPage & { html?: boolean }) => Promise<ConvertedPage>;
  extractor: ExtractionEngine;
  screenshots: ScreenshotServiceLike;
}

/** A crawl or deep crawl with its params. */
type CrawlingRun = Exclude<TypedRunParams, { type: 'extract' }>;

/** Sitemap files read to seed one deep crawl (an index may point at many). */
const MAX_SITEMAP_FILES = 20;

/**
 * Processes one work item: fetch → convert → (extract | follow links and
 * index) → screenshot. Page problems become a failed outcome with a clear
 * error; only an abort (cancel, delete, shutdown) throws.
 */
export async function processItem(
  deps: PipelineDeps,
  item: ClaimedItem,
  signal: AbortSignal,
): Promise<ItemOutcome> {
  let page: FetchedPage;
  const run = readRunParams(item.runType, item.params);
  const respectRobots = run.type === 'extract' ? true : run.params.respect_robots;
  try {
    page = await deps.fetcher.fetchPage(item.url, { signal, respectRobots });
  } catch (error) {
    signal.throwIfAborted();
    return failedOutcome(error);
  }
  // A crawl stores the formats it asked for; an extraction (a few pages) keeps its page in all of them.
  const formats: ContentFormat[] =
    run.type === 'extract' ? ['markdown', 'html', 'text', 'links'] : run.params.formats;
  const converted = await deps.convert({ ...page, html: formats.includes('html') });
  signal.throwIfAborted();
  const all: Record<ContentFormat, () => string> = {
    markdown: () => converted.markdown,
    html: () => converted.html,
    text: () => converted.text,
    links: () => JSON.stringify(converted.links),
  };
  const contents: Partial<Record<ResultContentFormat, string>> = Object.fromEntries(
    formats.map((format) => [format, all[format]()]),
  );
  const outcome: ItemOutcome = {
    status: 'succeeded',
    result: {
      final_url: page.finalUrl,
      title: converted.title,
      http_status: page.status,
      content_type: page.contentType,
      data: null,
      error: null,
      has_screenshot: false,
      screenshot_error: null,
    },
    contents,
  };

  if (run.type === 'extract') {
    const extracted = await deps.extractor.extract({
      url: page.finalUrl,
      html: page.body,
      schema: run.params.schema,
      query: run.params.query,
      owner: item.owner,
      signal,
      // What the converter already read: Readability's metadata and the main text (not read twice).
      article: page.kind === 'html' ? converted.article : null,
      mainText: converted.text,
    });
    signal.throwIfAborted();
    if (extracted.ok) {
      outcome.result.data = extracted.data;
      contents.json = JSON.stringify(extracted.data);
    } else {
      outcome.status = 'failed';
      outcome.result.error = extracted.error;
    }
  } else {
    outcome.discovered = await discover(deps, item, run, converted, page, signal);
    outcome.aliases = aliasesOf(item, page, converted);
    outcome.itemLimit = run.params.limit;
    outcome.document = {
      owner: item.owner,
      collection: run.params.collection,
      url: page.finalUrl,
      title: converted.title,
      headings: converted.headings,
      body: converted.text,
      runId: item.runId,
    };
  }

  if (run.params.screenshot) {
    await addScreenshot(deps, outcome, page, signal);
  }
  return outcome;
}

async function addScreenshot(
  deps: PipelineDeps,
  outcome: ItemOutcome,
  page: FetchedPage,
  signal: AbortSignal,
) {
  const reason = await deps.screenshots.unavailableReason();
  if (reason !== null) {
    outcome.result.screenshot_error = { code: 'screenshot_unavailable', message: reason };
    return;
  }
  if (page.kind !== 'html') {
    outcome.result.screenshot_error = {
      code: 'unsupported_content',
      message: `no screenshot of ${page.contentType}`,
    };
    return;
  }
  try {
    outcome.screenshot = await deps.screenshots.capture(page.finalUrl, { signal });
    outcome.result.has_screenshot = true;
  } catch (error) {
    signal.throwIfAborted();
    outcome.result.screenshot_error = errorInfo(error);
  }
}

/** The links of a crawled page that the run should follow, and for a deep crawl's first page its sitemaps. */
async function discover(
  deps: PipelineDeps,
  item: ClaimedItem,
  run: CrawlingRun,
  converted: ConvertedPage,
  page: FetchedPage,
  signal: AbortSignal,
): Promise<DiscoveredUrl[]> {
  const params = run.params;
  // A crawl of known URLs fetches exactly those; only a start URL is followed.
  if (run.type === 'crawl' && params.url === undefined) return [];
  const depth = item.depth + 1;
  if (run.type === 'deep-crawl' && depth > run.params.max_depth) return [];
  const root = params.url ?? item.url;
  const sameSite = run.type === 'deep-crawl' ? run.params.same_site : true;

  const candidates = converted.links.map((url) => ({ url, parentUrl: page.finalUrl }));
  if (run.type === 'deep-crawl' && item.depth === 0 && run.params.use_sitemap) {
    candidates.push(...(await sitemapUrls(deps, page.finalUrl, params.respect_robots, signal)));
  }
  const found: DiscoveredUrl[] = [];
  const robots = new Map<string, RobotsInfo>();
  for (const candidate of candidates) {
    if (sameSite && !isSameSite(candidate.url, root)) continue;
    if (!matchesPathGlobs(candidate.url, params.include_paths ?? [], params.exclude_paths ?? [])) continue;
    if (params.respect_robots) {
      const origin = new URL(candidate.url).origin;
      let rules = robots.get(origin);
      if (!rules) {
        rules = await deps.fetcher.robotsFor(origin);
        robots.set(origin, rules);
      }
      if (!rules.isAllowed(candidate.url)) continue;
    }
    found.push({
      url: candidate.url,
      key: normalizeUrl(candidate.url),
      depth,
      parentUrl: candidate.parentUrl,
    });
  }
  return found;
}

/**
 * The other URLs a crawled page answers for: where its URL redirected and its
 * same-site `rel=canonical`. Recorded so a later link to them is not fetched
 * again (a canonical on another site is not trusted: a page cannot claim
 * someone else's URL).
 */
function aliasesOf(item: ClaimedItem, page: FetchedPage, converted: ConvertedPage): string[] {
  const own = normalizeUrl(item.url);
  const aliases = new Set<string>([normalizeUrl(page.finalUrl)]);
  if (converted.canonicalUrl && isSameSite(converted.canonicalUrl, page.finalUrl)) {
    aliases.add(normalizeUrl(converted.canonicalUrl));
  }
  aliases.delete(own);
  return [...aliases];
}

/** URLs listed by the site's sitemaps (robots.txt `Sitemap:` lines, else `/sitemap.xml`), following indexes. */
async function sitemapUrls(
  deps: PipelineDeps,
  pageUrl: string,
  respectRobots: boolean,
  signal: AbortSignal,
): Promise<{ url: string; parentUrl: string }[]> {
  const origin = new URL(pageUrl).origin;
  const robots = await deps.fetcher.robotsFor(origin);
  const queue = robots.sitemaps.length > 0 ? [...robots.sitemaps] : [`${origin}/sitemap.xml`];
  const seen = new Set<string>();
  const urls: { url: string; parentUrl: string }[] = [];
  while (queue.length > 0 && seen.size < MAX_SITEMAP_FILES) {
    const sitemap = queue.shift()!;
    if (seen.has(sitemap)) continue;
    seen.add(sitemap);
    let xml: string | null = null;
    try {
      xml = await deps.fetcher.fetchText(sitemap, { signal, respectRobots });
    } catch {
      signal.throwIfAborted();
    }
    if (xml === null) continue;
    const parsed = parseSitemap(xml);
    queue.push(...parsed.sitemaps);
    for (const url of parsed.urls) urls.push({ url, parentUrl: sitemap });
  }
  return urls;
}

function errorInfo(error: unknown): { code: string; message: string } {
  if (error instanceof PageError) return { code: error.code, message: error.message };
  return { code: 'internal', message: 'an internal error stopped this page; it is logged on the server' };
}

function failedOutcome(error: unknown): ItemOutcome {
  const httpStatus = (error as { httpStatus?: unknown }).httpStatus;
  return {
    status: 'failed',
    result: {
      final_url: null,
      title: null,
      http_status: typeof httpStatus === 'number' ? httpStatus : null,
      content_type: null,
      data: null,
      error: errorInfo(error),
      has_screenshot: false,
      screenshot_error: null,
    },
    contents: {},
  };
}
