import type { IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import type { ServerConfig } from '../config.js';
import { PageError } from '../errors.js';
import { decodeBody, kindOfMediaType, parseContentType, sniffKind } from './content-type.js';
import { type AbortState, toPageError } from './fetch-error-mapping.js';
import {
  type AddressPolicy,
  createGuardedConnector,
  defaultAddressPolicy,
  type ResolveAll,
} from './guarded-connector.js';
import { HostGate, type ReleaseSlot } from './host-gate.js';
import { HttpStatusError } from './http-status-error.js';
import { checkDeclaredLength, dropBody, type OverflowPolicy, readBodyCapped } from './read-body.js';
import { allowAllRobots, parseRobots, RobotsCache } from './robots.js';
import { checkHopUrl } from './ssrf-guard.js';
import type {
  EncodedBody,
  FetchedPage,
  FetchPageOptions,
  FetchTextOptions,
  PageFetcherLike,
  RobotsInfo,
} from './types.js';

/** The settings a fetcher reads from the server configuration. */
export type PageFetcherConfig = Pick<
  ServerConfig,
  | 'userAgent'
  | 'pageTimeoutMs'
  | 'connectTimeoutMs'
  | 'maxDownloadBytes'
  | 'maxRedirects'
  | 'perHostConcurrency'
  | 'perHostDelayMs'
  | 'allowPrivateNetworks'
>;

/** Replaceable parts, for tests and embedding. */
export interface PageFetcherDeps {
  /** Which resolved addresses may be connected to; default: the SSRF classification. */
  addressPolicy?: AddressPolicy | undefined;
  /** The DNS step of the guarded lookup; default: the system resolver. */
  resolveAll?: ResolveAll | undefined;
  /** How long one origin's robots.txt is cached (default one hour). */
  robotsTtlMs?: number | undefined;
}

/** `Accept` sent for pages: HTML first, other text types we keep, anything last. */
export const PAGE_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.8';
const TEXT_ACCEPT = 'application/xml,text/xml,text/plain;q=0.9,*/*;q=0.8';
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** The content codings asked for (and undone by `readBodyCapped`), as undici's `fetch()` asks over http. */
const ACCEPT_ENCODING = 'gzip, deflate, br';
/** A redirect's or an error status's body is read (and dropped) up to this, keeping the connection. */
const DISCARD_MAX_BYTES = 64 * 1024;
/** robots.txt past this is ignored (Google reads 500 KiB). */
const ROBOTS_MAX_BYTES = 512 * 1024;
/** A robots.txt that does not answer in this time is treated as absent. */
const ROBOTS_TIMEOUT_MS = 10_000;
/** A Crawl-delay above this is capped, so one site cannot stall a run. */
export const MAX_CRAWL_DELAY_MS = 10_000;

interface RawRequest {
  accept: string;
  maxBytes: number;
  overflow: OverflowPolicy;
  /** Refuse a labelled media type the page kinds do not cover before reading its body. */
  pagesOnly: boolean;
  respectRobots: boolean;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** See {@link FetchPageOptions.onStart}. */
  onStart?: (() => void) | undefined;
  /** See {@link FetchPageOptions.onHostWait}. */
  onHostWait?: ((waiting: boolean) => void) | undefined;
  /** See {@link FetchPageOptions.owner}. */
  owner?: string | undefined;
}

/** The final response of a redirect chain, with its body read. */
interface RawResponse {
  finalUrl: string;
  status: number;
  contentType: string | null;
  bytes: Uint8Array;
}

/**
 * A request's one signal: aborted by a timer once started (started when the first slot is granted),
 * or by any of `sources` (the fetcher closing, the caller's signal) with that one's reason, until
 * `stop`. Listeners on the sources rather than `AbortSignal.any`: Node 20's `any` leaves a weak
 * reference and a finalisation record on each source for every request, and the fetcher's closing
 * signal lives as long as the server (~40 µs a request against ~13, timed alone).
 */
class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  fired = false;
  readonly signal = this.controller.signal;
  private readonly onSourceAbort = (event: Event) =>
    this.controller.abort((event.target as AbortSignal).reason);

  constructor(
    private readonly ms: number,
    private readonly sources: readonly AbortSignal[],
  ) {
    for (const source of sources) {
      if (source.aborted) {
        this.controller.abort(source.reason);
        return;
      }
      source.addEventListener('abort', this.onSourceAbort);
    }
  }

  start(): void {
    if (this.timer || this.fired) return;
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new PageError('timeout', `took longer than ${this.ms} ms`));
    }, this.ms);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const source of this.sources) source.removeEventListener('abort', this.onSourceAbort);
  }
}

/** Resolves or rejects with `promise`, or rejects with the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Fetches pages politely and safely (see README.md beside this file): an
 * SSRF guard at connect time and on every redirect hop, robots.txt,
 * per-host concurrency and delay, a page deadline and a download cap.
 * Every failure is a PageError with a stable code.
 */
export class PageFetcher implements PageFetcherLike {
  private readonly agent: Agent;
  private readonly gate: HostGate;
  private readonly robots: RobotsCache;
  private readonly closing = new AbortController();

  constructor(
    private readonly config: PageFetcherConfig,
    deps: PageFetcherDeps = {},
  ) {
    const policy = deps.addressPolicy ?? defaultAddressPolicy(config.allowPrivateNetworks);
    this.agent = new Agent({
      connect: createGuardedConnector({
        policy,
        connectTimeoutMs: config.connectTimeoutMs,
        resolveAll: deps.resolveAll,
      }),
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: config.pageTimeoutMs,
      bodyTimeout: config.pageTimeoutMs,
    });
    this.gate = new HostGate(Math.max(1, config.perHostConcurrency));
    this.robots = new RobotsCache((origin) => this.loadRobots(origin), { ttlMs: deps.robotsTtlMs });
  }

  /** Fetches one page: HTML, text or JSON, decoded. */
  async fetchPage(url: string, options: FetchPageOptions = {}): Promise<FetchedPage> {
    const raw = await this.request(url, {
      accept: PAGE_ACCEPT,
      maxBytes: this.config.maxDownloadBytes,
      overflow: 'error',
      pagesOnly: true,
      respectRobots: options.respectRobots ?? true,
      timeoutMs: this.config.pageTimeoutMs,
      signal: options.signal,
      onStart: options.onStart,
      onHostWait: options.onHostWait,
      owner: options.owner,
    });
    if (raw.status < 200 || raw.status > 299) throw new HttpStatusError(raw.status, raw.finalUrl);
    const media = parseContentType(raw.contentType);
    const kind = media.type ? kindOfMediaType(media.type) : sniffKind(raw.bytes);
    if (!kind) {
      throw new PageError(
        'unsupported_content',
        `unsupported content type ${media.type || 'binary (unlabelled)'}`,
      );
    }
    return pageOfBytes(
      {
        url,
        finalUrl: raw.finalUrl,
        status: raw.status,
        contentType:
          media.type || (kind === 'html' ? 'text/html' : kind === 'json' ? 'application/json' : 'text/plain'),
        kind,
      },
      { bytes: raw.bytes, headerCharset: media.charset },
    );
  }

  /**
   * Raw text of a URL (robots.txt, sitemaps): any content type, gzip bodies
   * (`.xml.gz`) unpacked, null on 404/410, PageError `http_error` on other
   * non-2xx statuses.
   */
  async fetchText(url: string, options: FetchTextOptions = {}): Promise<string | null> {
    const maxBytes = options.maxBytes ?? this.config.maxDownloadBytes;
    const isRobotsFile = safePathname(url) === '/robots.txt';
    const raw = await this.request(url, {
      accept: TEXT_ACCEPT,
      maxBytes,
      overflow: 'error',
      pagesOnly: false,
      respectRobots: !isRobotsFile && (options.respectRobots ?? true),
      timeoutMs: this.config.pageTimeoutMs,
      signal: options.signal,
    });
    if (raw.status === 404 || raw.status === 410) return null;
    if (raw.status < 200 || raw.status > 299) throw new HttpStatusError(raw.status, raw.finalUrl);
    let bytes = raw.bytes;
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      try {
        bytes = gunzipSync(bytes, { maxOutputLength: maxBytes });
      } catch (error) {
        if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          throw new PageError('too_large', `unpacked body of ${url} is over the ${maxBytes}-byte limit`);
        }
        throw new PageError('fetch_failed', `could not gunzip ${url}: ${(error as Error).message}`);
      }
    }
    const media = parseContentType(raw.contentType);
    const charset = media.type.includes('gzip') ? null : media.charset;
    return decodeBody(bytes, charset, 'text');
  }

  /**
   * The robots.txt rules of an origin for this server's user agent, with its
   * sitemaps and crawl-delay. Cached per origin; a missing or unreadable
   * robots.txt allows everything.
   */
  robotsFor(origin: string): Promise<RobotsInfo> {
    let key: string;
    try {
      key = new URL(origin).origin;
    } catch {
      return Promise.reject(new PageError('unprocessable_url', `not a valid origin: ${origin}`));
    }
    return this.robots.get(key);
  }

  /** Aborts requests in flight and closes pooled connections. */
  async close(): Promise<void> {
    this.closing.abort(new PageError('cancelled', 'the fetcher was closed'));
    this.robots.clear();
    await this.agent.destroy();
  }

  /** Loads one origin's robots.txt; see README.md for what failures mean. */
  private async loadRobots(origin: string): Promise<RobotsInfo> {
    const robotsUrl = `${origin}/robots.txt`;
    let raw: RawResponse;
    try {
      raw = await this.request(robotsUrl, {
        accept: 'text/plain,*/*;q=0.8',
        maxBytes: ROBOTS_MAX_BYTES,
        overflow: 'truncate',
        pagesOnly: false,
        respectRobots: false,
        timeoutMs: Math.min(this.config.pageTimeoutMs, ROBOTS_TIMEOUT_MS),
        // Shared by every page of the origin, so no one caller's signal; only the fetcher's close.
        signal: undefined,
      });
    } catch (error) {
      // A refused address stays refused (the page on it would be too);
      // an unreachable or broken robots.txt means no rules.
      if (error instanceof PageError && (error.code === 'unprocessable_url' || error.code === 'cancelled')) {
        throw error;
      }
      return allowAllRobots();
    }
    if (raw.status >= 200 && raw.status <= 299) {
      // Rules are read for the origin asked about, even when robots.txt redirected elsewhere.
      return parseRobots(
        robotsUrl,
        decodeBody(raw.bytes, parseContentType(raw.contentType).charset, 'text'),
        this.config.userAgent,
      );
    }
    return allowAllRobots(); // 4xx: no robots.txt; 5xx: treated as absent (documented choice)
  }

  /** Rules for one hop, or null when robots are not honoured. */
  private async rulesFor(url: URL, respectRobots: boolean, signal: AbortSignal): Promise<RobotsInfo | null> {
    if (!respectRobots) return null;
    return abortable(this.robots.get(url.origin), signal);
  }

  /**
   * Waits for a slot to `host` (see {@link HostGate.acquire}). Where the host has a delay between
   * requests, tells `onHostWait` while it queues: a turn there can be seconds away. A wait for one of
   * the host's concurrent slots ends with a page's fetch, and is not told.
   */
  private async hostTurn(
    host: string,
    crawlDelayMs: number,
    signal: AbortSignal,
    onHostWait: RawRequest['onHostWait'],
    owner: RawRequest['owner'],
  ): Promise<ReleaseSlot> {
    const delayMs = Math.max(this.config.perHostDelayMs, crawlDelayMs);
    if (!onHostWait || delayMs === 0) return this.gate.acquire(host, { delayMs, signal, key: owner });
    let queued = false;
    try {
      const onQueued = () => {
        queued = true;
        onHostWait(true);
      };
      return await this.gate.acquire(host, { delayMs, signal, onQueued, key: owner });
    } finally {
      if (queued) onHostWait(false);
    }
  }

  /**
   * GETs a URL following redirects by hand (each hop through the guard, the
   * robots check and the host gate) and reads the final body under the cap.
   */
  private async request(input: string, req: RawRequest): Promise<RawResponse> {
    const deadline = new Deadline(
      req.timeoutMs,
      req.signal ? [this.closing.signal, req.signal] : [this.closing.signal],
    );
    const signal = deadline.signal;
    const state = (): AbortState => ({
      cancelled: Boolean(req.signal?.aborted) || this.closing.signal.aborted,
      timedOut: deadline.fired,
      timeoutMs: req.timeoutMs,
    });
    let current = checkHopUrl(input, this.config.allowPrivateNetworks);
    try {
      for (let hop = 0; ; hop += 1) {
        const rules = await this.rulesFor(current, req.respectRobots, signal);
        if (rules && !rules.isAllowed(current.href)) {
          throw new PageError(
            'robots_disallowed',
            `robots.txt of ${current.origin} disallows ${current.href}`,
          );
        }
        const crawlDelay = Math.min(rules?.crawlDelayMs ?? 0, MAX_CRAWL_DELAY_MS);
        const release = await this.hostTurn(current.hostname, crawlDelay, signal, req.onHostWait, req.owner);
        deadline.start();
        if (hop === 0) req.onStart?.();
        try {
          // `dispatcher.request`, not `fetch()`: a Node stream body and plain header
          // objects instead of a WHATWG Request, Headers and web stream per page.
          const response = await this.agent.request({
            origin: current.origin,
            path: `${current.pathname}${current.search}`,
            method: 'GET',
            signal,
            headers: {
              'user-agent': this.config.userAgent,
              accept: req.accept,
              'accept-encoding': ACCEPT_ENCODING,
            },
          });
          const status = response.statusCode;
          const body = response.body;
          const location = headerOf(response.headers, 'location');
          if (REDIRECT_STATUSES.has(status) && location) {
            await discard(body, signal);
            if (hop >= this.config.maxRedirects) {
              throw new PageError(
                'too_many_redirects',
                `more than ${this.config.maxRedirects} redirects starting at ${input}`,
              );
            }
            let next: URL;
            try {
              next = new URL(location, current);
            } catch {
              throw new PageError('fetch_failed', `invalid redirect Location from ${current.href}`);
            }
            next.hash = '';
            current = checkHopUrl(next, this.config.allowPrivateNetworks);
            continue;
          }
          const ok = status >= 200 && status <= 299;
          if (!ok) {
            await discard(body, signal);
            return { finalUrl: current.href, status, contentType: null, bytes: new Uint8Array(0) };
          }
          const contentType = headerOf(response.headers, 'content-type');
          if (req.pagesOnly) {
            const media = parseContentType(contentType);
            if (media.type && !kindOfMediaType(media.type)) {
              dropBody(body);
              throw new PageError('unsupported_content', `unsupported content type ${media.type}`);
            }
          }
          if (req.overflow === 'error') {
            try {
              checkDeclaredLength(headerOf(response.headers, 'content-length'), req.maxBytes);
            } catch (error) {
              dropBody(body);
              throw error;
            }
          }
          const bytes = await readBodyCapped(
            body,
            headerOf(response.headers, 'content-encoding'),
            req.maxBytes,
            req.overflow,
          );
          return { finalUrl: current.href, status, contentType, bytes };
        } finally {
          release();
        }
      }
    } catch (error) {
      throw toPageError(error, current.href, state());
    } finally {
      deadline.stop();
    }
  }
}

/** One response header as a string (repeated headers joined), or null. */
function headerOf(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Drops a body we do not read (a redirect's, an error page's): a short one is
 * read to its end so the connection stays open for the next request; a long
 * one closes it.
 */
async function discard(body: Dispatcher.ResponseData['body'], signal: AbortSignal): Promise<void> {
  await body.dump({ limit: DISCARD_MAX_BYTES, signal }).catch(() => {});
}

function safePathname(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

/**
 * A fetched page whose `body` is decoded from `encoded` when first read, and whose bytes
 * `takeEncodedBody` hands over instead while it has not been (see {@link FetchedPage}); the page
 * then no longer holds them.
 */
export function pageOfBytes(fields: Omit<FetchedPage, 'body'>, encoded: EncodedBody): FetchedPage {
  let held: EncodedBody | null = encoded;
  let decoded: string | undefined;
  return {
    ...fields,
    get body(): string {
      if (decoded !== undefined) return decoded;
      if (held === null) throw new Error('the body was handed over undecoded (takeEncodedBody)');
      decoded = decodeBody(held.bytes, held.headerCharset, fields.kind);
      held = null;
      return decoded;
    },
    takeEncodedBody: () => {
      const taken = held;
      held = null;
      return taken;
    },
  };
}
