import { z } from 'zod';
import { openEnum } from './open-enum.js';

/**
 * Every code a failed result's `error` (or a result's `screenshot_error`)
 * carries, with what it means. These are outcomes of one page, not HTTP
 * errors of the API: the request that created the run succeeded. The API
 * documentation's table of page error codes must say the same (a test checks it).
 *
 * @example
 * ```ts
 * PAGE_ERROR_CODES.robots_disallowed; // 'robots.txt of the site disallows the URL (or a redirect target)'
 * ```
 */
export const PAGE_ERROR_CODES = {
  unprocessable_url: 'a URL that may not be fetched: scheme, credentials, or a private or local address',
  robots_disallowed: 'robots.txt of the site disallows the URL (or a redirect target)',
  fetch_failed: 'the host could not be resolved or reached, the connection broke, or the browser crashed',
  timeout: 'fetching the page (or rendering its screenshot) took longer than its time limit',
  too_large:
    'the body is over the download limit, or too large to convert within the memory limit of a converter thread, or (a screenshot) the page used more memory in the browser than its limit',
  too_many_redirects: 'more redirects than the limit',
  http_error: 'the final answer was not 2xx; `http_status` has it',
  unsupported_content: 'a content type that is not read (or, for a screenshot, not a rendered page)',
  extraction_failed: 'the page does not state a required property, or the extracted object fails the schema',
  screenshot_unavailable: 'the server cannot take screenshots (no Chromium, or it is shutting down)',
  cancelled: 'the run was cancelled or the server stopped while the page was in progress',
  crashed:
    'the process working on the page stopped (crashed, ran out of memory, was killed) or hung, each of the times the page was allowed to start (3 by default): it is not tried again',
  internal: 'a bug stopped this page; it is logged on the server',
} as const;

/**
 * Every code a failed run's `error` carries (a run-level failure, beside the
 * per-page errors of its results), with what it means.
 */
export const RUN_ERROR_CODES = {
  all_items_failed: "no page could be processed; each result's error says why",
} as const;

/**
 * A closed enum of a registry's codes whose OpenAPI schema lists each code
 * with its description (`x-enumDescriptions`, read by common viewers and
 * generators, and a Markdown list in `description` for the others).
 */
function codeEnum<const T extends Record<string, string>>(id: string, what: string, registry: T) {
  const codes = Object.keys(registry) as [keyof T & string, ...(keyof T & string)[]];
  const list = codes.map((code) => `- \`${code}\`: ${registry[code]}`).join('\n');
  return z.enum(codes).meta({ id, description: `${what}\n\n${list}`, 'x-enumDescriptions': { ...registry } });
}

/**
 * The code of a page's error: one of {@link PAGE_ERROR_CODES}, closed (as this
 * server sends it; read a foreign server with {@link PageErrorInfoLenient}).
 *
 * @example
 * ```ts
 * if (result.error?.code === 'robots_disallowed') skipped.push(result.url);
 * ```
 */
export const PageErrorCode = codeEnum(
  'PageErrorCode',
  'Why a page failed (or has no screenshot):',
  PAGE_ERROR_CODES,
);
export type PageErrorCode = z.infer<typeof PageErrorCode>;

/** The code of a run's error: one of {@link RUN_ERROR_CODES}, closed. */
export const RunErrorCode = codeEnum('RunErrorCode', 'Why a run as a whole failed:', RUN_ERROR_CODES);
export type RunErrorCode = z.infer<typeof RunErrorCode>;

/** A result's `error` or `screenshot_error`: a known code and a message for people. */
export const PageErrorInfo = z.strictObject({ code: PageErrorCode, message: z.string() });
export type PageErrorInfo = z.infer<typeof PageErrorInfo>;

/** A run's `error`: a known code and a message for people. */
export const RunErrorInfo = z.strictObject({ code: RunErrorCode, message: z.string() });
export type RunErrorInfo = z.infer<typeof RunErrorInfo>;

/**
 * Lenient reading of {@link PageErrorInfo}, for any server: any code string
 * (typed `PageErrorCode | (string & {})`, so a `switch` narrows on the known
 * ones), `message` optional, unknown fields kept.
 */
export const PageErrorInfoLenient = z.looseObject({
  code: openEnum(PageErrorCode.options),
  message: z.string().optional(),
});
export type PageErrorInfoLenient = z.infer<typeof PageErrorInfoLenient>;

/** Lenient reading of {@link RunErrorInfo}: any code string, `message` optional, unknown fields kept. */
export const RunErrorInfoLenient = z.looseObject({
  code: openEnum(RunErrorCode.options),
  message: z.string().optional(),
});
export type RunErrorInfoLenient = z.infer<typeof RunErrorInfoLenient>;
