import { z } from 'zod';
import { ContentFormat, HttpUrl, prefixedId, Timestamp } from './common.js';
import { openEnum } from './open-enum.js';
import { PageErrorInfo, PageErrorInfoLenient } from './page-errors.js';
import { PageQuery, page, pageLenient } from './pagination.js';
import { RunId } from './run.js';

/** States of one result. */
export const ResultStatus = z.enum(['succeeded', 'failed']);
export type ResultStatus = z.infer<typeof ResultStatus>;

/** Formats the content endpoint serves: the crawl formats plus `json` (an extraction's object). */
export const ResultContentFormat = z.enum([...ContentFormat.options, 'json']);
export type ResultContentFormat = z.infer<typeof ResultContentFormat>;

/**
 * A result's content in one format: a string for `markdown`, `html` and
 * `text`, an array of absolute URLs for `links`, the extracted object for `json`.
 */
export const ContentValue = z.union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())]);
export type ContentValue = z.infer<typeof ContentValue>;

/**
 * One result of a run: one page fetched (and, for extraction, its extracted
 * `data`). `depth` and `parent_url` say where a crawl found the page;
 * `screenshot_error` says why a result asked to have a screenshot has none.
 *
 * @example
 * ```ts
 * for (const result of page.data) if (result.status === 'succeeded') console.log(result.title);
 * ```
 */
export const Result = z
  .strictObject({
    id: prefixedId('res'),
    run_id: RunId,
    url: HttpUrl,
    final_url: HttpUrl.nullable(),
    status: ResultStatus,
    title: z.string().nullable(),
    depth: z.number().int().min(0),
    parent_url: HttpUrl.nullable(),
    http_status: z.number().int().min(100).max(599).nullable(),
    content_type: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).nullable(),
    has_screenshot: z.boolean(),
    screenshot_error: PageErrorInfo.nullable(),
    error: PageErrorInfo.nullable(),
    created_at: Timestamp,
    content: ContentValue.nullable().optional().meta({
      description:
        'Only with `include=content`: the content in the asked format, null when the result has none in it',
    }),
  })
  .meta({ id: 'Result' });
export type Result = z.infer<typeof Result>;

/** A result as a client reads it from any server: only `id` required, unknown fields kept. */
export const ResultLenient = z.looseObject({
  id: z.string(),
  run_id: z.string().optional(),
  url: z.string().optional(),
  final_url: z.string().nullable().optional(),
  status: openEnum(ResultStatus.options).optional(),
  title: z.string().nullable().optional(),
  depth: z.number().optional(),
  parent_url: z.string().nullable().optional(),
  http_status: z.number().nullable().optional(),
  content_type: z.string().nullable().optional(),
  data: z.record(z.string(), z.unknown()).nullable().optional(),
  has_screenshot: z.boolean().optional(),
  screenshot_error: PageErrorInfoLenient.nullable().optional(),
  error: PageErrorInfoLenient.nullable().optional(),
  created_at: z.string().optional(),
  content: z.unknown().optional(),
});
export type ResultLenient = z.infer<typeof ResultLenient>;

/** A page of results. */
export const ResultPage = page(Result).meta({ id: 'ResultPage' });
export type ResultPage = z.infer<typeof ResultPage>;
export const ResultPageLenient = pageLenient(ResultLenient);

/**
 * `GET …/results` query: filter `status`, pagination, and `include=content`
 * (beyond the specification) to carry each result's content in `format`, so
 * a crawl's pages come in one paginated read.
 */
export const ListResultsQuery = PageQuery.extend({
  status: ResultStatus.optional(),
  include: z.enum(['content']).optional().meta({
    description:
      "`content`: each result carries its `content` in `format` (one read for a crawl's pages); a page holds at most 8 Mi characters of content (at least one result), and `next_cursor` goes on from there",
  }),
  format: ResultContentFormat.optional().meta({
    description:
      "Format of the included content; without it, the run's first requested format (`json` for extraction)",
  }),
});
export type ListResultsQuery = z.infer<typeof ListResultsQuery>;

/** `GET …/content` query. Without `format`, the run's first requested format (or `json` for extraction). */
export const ContentQuery = z.strictObject({ format: ResultContentFormat.optional() });
export type ContentQuery = z.infer<typeof ContentQuery>;

/** Path parameters naming a result. */
export const ResultPathParams = z.strictObject({
  runId: z.string().min(1).max(128),
  resultId: z.string().min(1).max(128),
});

/**
 * A result's content: a string for `markdown`, `html` and `text`, an array of
 * absolute URLs for `links`, the extracted object for `json`.
 *
 * @example
 * ```ts
 * const { content } = ResultContent.parse(await response.json());
 * ```
 */
export const ResultContent = z
  .strictObject({
    id: prefixedId('res'),
    url: HttpUrl,
    format: ResultContentFormat,
    content: ContentValue,
  })
  .meta({ id: 'ResultContent' });
export type ResultContent = z.infer<typeof ResultContent>;

/**
 * Lenient reading of {@link ResultContent}: unknown fields kept, any format
 * string; `content` is still one of the three shapes every server sends
 * (a string, an array of strings, an object), so a caller's `content` is typed.
 */
export const ResultContentLenient = z.looseObject({
  id: z.string().optional(),
  url: z.string().optional(),
  format: z.string().optional(),
  content: ContentValue,
});
export type ResultContentLenient = z.infer<typeof ResultContentLenient>;

/**
 * Access to a screenshot: a signed URL that needs no API key, and when it expires.
 *
 * @example
 * ```ts
 * const { url } = ScreenshotAccess.parse(await response.json());
 * const png = await fetch(url).then((r) => r.arrayBuffer());
 * ```
 */
export const ScreenshotAccess = z
  .strictObject({ url: z.url(), expires_at: Timestamp })
  .meta({ id: 'ScreenshotAccess' });
export type ScreenshotAccess = z.infer<typeof ScreenshotAccess>;

export const ScreenshotAccessLenient = z.looseObject({ url: z.string(), expires_at: z.string().optional() });
export type ScreenshotAccessLenient = z.infer<typeof ScreenshotAccessLenient>;
