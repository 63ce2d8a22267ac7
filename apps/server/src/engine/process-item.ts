import type { ContentFormat, PageErrorInfo, ResultContentFormat } from '@webdata/contract';
import type { ServerConfig } from '../config.js';
import type { ConvertInput } from '../content/convert-fetched.js';
import type { ConvertedPage } from '../content/types.js';
import { type CrawlFetcher, discoverLinks } from '../crawl/discover-links.js';
import { pageAliases } from '../crawl/page-aliases.js';
import { PageError } from '../errors.js';
import type { ExtractionEngine } from '../extract/types.js';
import type { FetchedPage, PageFetcherLike } from '../fetch/types.js';
import type { ScreenshotServiceLike } from '../screenshots/types.js';
import { chunksOf, type EmbeddedChunk, type EmbedderLike, EmbeddingsError } from '../search/embeddings.js';
import { failedOutcome } from '../store/failed-outcome.js';
import type { ClaimedItem, ItemOutcome } from '../store/store.js';
import { readRunParams } from './run-params.js';

/** The fetcher as the pipeline uses it: pages, raw text (sitemaps) and robots rules. */
export type PipelineFetcher = PageFetcherLike & CrawlFetcher;

/** What processing a page needs. */
export interface PipelineDeps {
  config: ServerConfig;
  fetcher: PipelineFetcher;
  /** Converts a page; `html: false` when its content is not wanted as HTML. */
  convert: (page: ConvertInput) => Promise<ConvertedPage>;
  extractor: ExtractionEngine;
  screenshots: ScreenshotServiceLike;
  /** Embeds indexed pages' chunks when semantic search is configured. */
  embedder?: EmbedderLike | undefined;
}

/**
 * Processes one work item: fetch → convert → (extract | follow links and
 * index) → screenshot. Page problems become a failed outcome with a clear
 * error; only an abort (cancel, delete, shutdown) throws.
 */
export async function processItem(
  deps: PipelineDeps,
  item: ClaimedItem,
  signal: AbortSignal,
  started?: () => void,
  hostWait?: (waiting: boolean) => void,
): Promise<ItemOutcome> {
  let page: FetchedPage;
  const run = readRunParams(item.runType, item.params);
  const respectRobots = run.type === 'extract' ? true : run.params.respect_robots;
  try {
    page = await deps.fetcher.fetchPage(item.url, {
      signal,
      respectRobots,
      onStart: started,
      onHostWait: hostWait,
      owner: item.owner,
    });
  } catch (error) {
    signal.throwIfAborted();
    return failureOf(error);
  }
  // A crawl stores the formats it asked for; an extraction (a few pages) keeps its page in all of them.
  const formats: ContentFormat[] =
    run.type === 'extract' ? ['markdown', 'html', 'text', 'links'] : run.params.formats;
  let converted: ConvertedPage;
  try {
    converted = await deps.convert({
      kind: page.kind,
      finalUrl: page.finalUrl,
      // A crawl reads the page's body only through its conversion: the bytes go to the converter,
      // which decodes them (not the main thread). An extraction reads the HTML here too.
      body: (run.type === 'extract' ? null : page.takeEncodedBody?.()) ?? page.body,
      html: formats.includes('html'),
      // A crawl indexes the page's text: its word index is built with it, off the main thread.
      words: run.type !== 'extract',
    });
  } catch (error) {
    // A page too large to convert fails alone; any other error is a bug, recorded by the worker pool.
    if (!(error instanceof PageError)) throw error;
    signal.throwIfAborted();
    return failureOf(error);
  }
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
    outcome.discovered = await discoverLinks(
      deps.fetcher,
      run,
      { url: item.url, finalUrl: page.finalUrl, depth: item.depth, links: converted.links },
      signal,
    );
    outcome.aliases = pageAliases({
      url: item.url,
      finalUrl: page.finalUrl,
      canonicalUrl: converted.canonicalUrl,
    });
    outcome.itemLimit = run.params.limit;
    outcome.document = {
      owner: item.owner,
      collection: run.params.collection,
      url: page.finalUrl,
      title: converted.title,
      headings: converted.headings,
      body: converted.text,
      words: converted.words,
      runId: item.runId,
    };
    if (deps.embedder) outcome.document.chunks = await embedChunks(deps.embedder, converted, signal);
  }

  if (run.params.screenshot) {
    await addScreenshot(deps, item, outcome, page, signal);
  }
  return outcome;
}

/**
 * The page's chunks with their embeddings, or undefined when the endpoint
 * fails: the page is then indexed for lexical search only (a search still
 * finds it by its words).
 */
async function embedChunks(
  embedder: EmbedderLike,
  converted: ConvertedPage,
  signal: AbortSignal,
): Promise<EmbeddedChunk[] | undefined> {
  const texts = chunksOf(converted.title, converted.text);
  try {
    const vectors = await embedder.embed(texts, signal);
    return texts.map((text, i) => ({ text, vector: vectors[i]! }));
  } catch (error) {
    signal.throwIfAborted();
    if (error instanceof EmbeddingsError) return undefined;
    throw error;
  }
}

async function addScreenshot(
  deps: PipelineDeps,
  item: ClaimedItem,
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
    // The run's pages share a browser context (its renderer and cache); runs never do. A run
    // id belongs to one owner, so the key keeps owners apart too.
    outcome.screenshot = await deps.screenshots.capture(page.finalUrl, {
      signal,
      runKey: item.runId,
      // Captures waiting for a rendering slot take turns between owners.
      owner: item.owner,
    });
    outcome.result.has_screenshot = true;
  } catch (error) {
    signal.throwIfAborted();
    outcome.result.screenshot_error = errorInfo(error);
  }
}

function errorInfo(error: unknown): PageErrorInfo {
  if (error instanceof PageError) return { code: error.code, message: error.message };
  return { code: 'internal', message: 'an internal error stopped this page; it is logged on the server' };
}

function failureOf(error: unknown): ItemOutcome {
  const httpStatus = (error as { httpStatus?: unknown }).httpStatus;
  return failedOutcome(errorInfo(error), typeof httpStatus === 'number' ? httpStatus : null);
}
