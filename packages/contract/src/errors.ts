import { z } from 'zod';

/**
 * Every error code of the v1 contract, with the HTTP status it is sent with.
 *
 * @example
 * ```ts
 * ERROR_STATUS.rate_limited; // 429
 * ```
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable_url: 422,
  rate_limited: 429,
  internal: 500,
  not_implemented: 501,
  unavailable: 503,
} as const;

/** An error code of the v1 contract. */
export const ErrorCode = z.enum(
  Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]],
);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** One validation problem: where (`path`) and what. */
export const ErrorDetail = z.strictObject({
  path: z.array(z.union([z.string(), z.number()])),
  code: z.string(),
  message: z.string(),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/**
 * The one error body every non-2xx answer carries.
 *
 * @example
 * ```ts
 * const body: ErrorBody = {
 *   error: { code: 'not_found', message: 'run not found', request_id: 'req_1' },
 * };
 * ```
 */
export const ErrorBody = z
  .strictObject({
    error: z.strictObject({
      code: ErrorCode,
      message: z.string(),
      details: z.array(ErrorDetail).optional(),
      request_id: z.string(),
    }),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Lenient reading of {@link ErrorBody}: any code string, extra fields kept, `request_id` optional. */
export const ErrorBodyLenient = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string().optional(),
    details: z.array(z.unknown()).optional(),
    request_id: z.string().optional(),
  }),
});
export type ErrorBodyLenient = z.infer<typeof ErrorBodyLenient>;
