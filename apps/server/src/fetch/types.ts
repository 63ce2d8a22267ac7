/** What the fetcher hands to the rest of the server for one page. */
export interface FetchedPage {
  /** The URL asked for. */
  url: string;
  /** The URL after redirects. */
  finalUrl: string;
  /** HTTP status of the final response (2xx; other statuses are a PageError `http_error`). */
  status: number;
  /** The response's media type, lower case, without parameters (`text/html`). */
  contentType: string;
  /** How the body was read: HTML to convert, or text/JSON kept as text. */
  kind: 'html' | 'text' | 'json';
  /** The decoded body (a page of {@link PageFetcher} decodes it when it is first read). */
  body: string;
  /**
   * The body as downloaded, undecoded, while `body` has not been read, or null (then read
   * `body`): a converter thread takes the bytes (moved to it, not copied) and decodes them there,
   * so a multi-MB page is neither decoded nor copied on the main thread. Once taken, the bytes are
   * the taker's: `body` is not readable any more (it throws).
   */
  takeEncodedBody?: (() => EncodedBody | null) | undefined;
}

/** A body as downloaded, with the charset its `Content-Type` named (see `decodeBody`). */
export interface EncodedBody {
  bytes: Uint8Array;
  headerCharset: string | null;
}

/** Per-call options of {@link PageFetcherLike.fetchPage}. */
export interface FetchPageOptions {
  signal?: AbortSignal | undefined;
  /** Honour robots.txt (default true). */
  respectRobots?: boolean | undefined;
  /** Called when the first request goes out (robots.txt read, the host's turn come). */
  onStart?: (() => void) | undefined;
  /**
   * Called with true when a request of the page queues for its turn at a host
   * with a delay between requests (robots.txt crawl-delay,
   * `WEBDATA_PER_HOST_DELAY_MS`), and with false when the turn comes (or the
   * wait is aborted). The worker pool lends the page's slot meanwhile.
   */
  onHostWait?: ((waiting: boolean) => void) | undefined;
  /**
   * Whose page it is (its owner): requests waiting for their turn at a host take turns between
   * owners, so one owner's large crawl does not hold another's page back behind all of its own.
   */
  owner?: string | undefined;
}

/**
 * Fetches one page politely and safely: SSRF guard at connect time and after
 * every redirect, robots.txt, per-host concurrency and delay, time-outs and a
 * size cap. Throws `PageError` (see `errors.ts`) with a stable code.
 */
export interface PageFetcherLike {
  fetchPage(url: string, options?: FetchPageOptions): Promise<FetchedPage>;
  /** Raw text of a URL (robots.txt, sitemaps), same guard; null on 404/410. */
  fetchText?(url: string, options?: FetchPageOptions): Promise<string | null>;
  /** robots.txt of an origin for this server's agent: sitemaps, crawl-delay, rules (cached). */
  robotsFor?(origin: string): Promise<RobotsInfo>;
  close(): Promise<void>;
}

/** Per-call options of {@link PageFetcherLike.fetchText}. */
export interface FetchTextOptions extends FetchPageOptions {
  /** Largest body read, in bytes (after gunzip for `.gz`); default the server's `maxDownloadBytes`. */
  maxBytes?: number | undefined;
}

/** What one origin's robots.txt says for this server's user agent. */
export interface RobotsInfo {
  /** Absolute `Sitemap:` URLs, deduplicated. */
  sitemaps: string[];
  /** The `Crawl-delay` for this agent, in milliseconds, when given. */
  crawlDelayMs: number | null;
  /** Whether a URL of this origin may be fetched. */
  isAllowed(url: string): boolean;
}
