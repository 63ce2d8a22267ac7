import { z } from 'zod';
import { CollectionName, ContentFormat, HttpUrl } from './common.js';
import { UrlList } from './extract.js';
import { LIMITS } from './limits.js';

const PathPatterns = z
  .array(z.string().min(1).max(LIMITS.maxPathPatternLength))
  .max(LIMITS.maxPathPatterns)
  .optional()
  .meta({ description: 'Glob patterns matched against the URL path, e.g. "/docs/**"' });

/** Options shared by crawl and deep crawl. */
const pageOptions = {
  formats: z.array(ContentFormat).min(1).max(4).default(['markdown']),
  screenshot: z.boolean().default(false),
  collection: CollectionName.default('default'),
  include_paths: PathPatterns,
  exclude_paths: PathPatterns,
  respect_robots: z.boolean().default(true),
};

const crawlFields = {
  urls: UrlList.optional(),
  url: HttpUrl.optional(),
  limit: z.number().int().min(1).max(LIMITS.maxCrawlLimit).default(10),
  ...pageOptions,
};

function requireUrlsOrUrl(
  body: { urls?: string[] | undefined; url?: string | undefined },
  ctx: z.core.$RefinementCtx,
) {
  if (body.urls === undefined && body.url === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['urls'],
      message: 'give either urls (known pages) or url (a start page)',
    });
  } else if (body.urls !== undefined && body.url !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'give either urls or url, not both' });
  }
}

/**
 * `POST /api/v1/crawl`: either `urls` (each fetched once) or `url` (a start
 * page whose same-site links are followed breadth-first up to `limit`).
 *
 * @example
 * ```ts
 * CrawlRequest.parse({ url: 'https://docs.example/', limit: 50, formats: ['markdown', 'links'] });
 * ```
 */
export const CrawlRequest = z
  .strictObject(crawlFields)
  .superRefine(requireUrlsOrUrl)
  .meta({ id: 'CrawlRequest' });
/**
 * A crawl request as a caller writes it: `urls` or `url`, exactly one (the
 * schema's refinement says so at run time; the type says it at compile time,
 * so `client.crawl({})` does not compile).
 */
export type CrawlRequest = OneStartOf<z.input<typeof CrawlRequest>>;
/** `urls` or `url`, exactly one of them, and the other fields as they are. */
type OneStartOf<T extends { urls?: unknown; url?: unknown }> =
  | (Omit<T, 'urls' | 'url'> & { urls: NonNullable<T['urls']>; url?: undefined })
  | (Omit<T, 'urls' | 'url'> & { url: NonNullable<T['url']>; urls?: undefined });
export type CrawlParams = z.output<typeof CrawlRequest>;

/** `POST /api/v1/runs` body for a crawl. */
export const CrawlRunRequest = z
  .strictObject({ type: z.literal('crawl'), ...crawlFields })
  .superRefine(requireUrlsOrUrl);

const deepCrawlFields = {
  url: HttpUrl,
  max_depth: z.number().int().min(0).max(LIMITS.maxDeepCrawlDepth).default(3),
  limit: z.number().int().min(1).max(LIMITS.maxDeepCrawlLimit).default(100),
  use_sitemap: z.boolean().default(true),
  same_site: z.boolean().default(true),
  ...pageOptions,
};

/**
 * `POST /api/v1/deep-crawl`: breadth-first from `url` to `max_depth`, up to
 * `limit` pages (the server's ceiling applies, default 10,000).
 *
 * @example
 * ```ts
 * DeepCrawlRequest.parse({ url: 'https://blog.example/', max_depth: 2, limit: 500 });
 * ```
 */
export const DeepCrawlRequest = z.strictObject(deepCrawlFields).meta({ id: 'DeepCrawlRequest' });
export type DeepCrawlRequest = z.input<typeof DeepCrawlRequest>;
export type DeepCrawlParams = z.output<typeof DeepCrawlRequest>;

/** `POST /api/v1/runs` body for a deep crawl. */
export const DeepCrawlRunRequest = z.strictObject({ type: z.literal('deep-crawl'), ...deepCrawlFields });

const { urls: _crawlUrls, ...crawlParamFields } = crawlFields;

/**
 * What a crawl run keeps of its request (`Run.params`): the body less `type`
 * and `urls` (the run's own field), defaults applied. `url` is there when the
 * crawl follows links from a start page.
 */
export const CrawlRunParams = z.strictObject(crawlParamFields);
export type CrawlRunParams = z.output<typeof CrawlRunParams>;

/** What a deep-crawl run keeps of its request (`Run.params`): the body less `type`, defaults applied. */
export const DeepCrawlRunParams = z.strictObject(deepCrawlFields);
export type DeepCrawlRunParams = z.output<typeof DeepCrawlRunParams>;
