import { z } from 'zod';
import { LIMITS } from './limits.js';

/** Query parameters shared by every list endpoint: `limit` (1–200, default 50) and `cursor`. */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(LIMITS.maxPageSize).default(LIMITS.defaultPageSize),
  cursor: z.string().min(1).max(512).optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

/**
 * A page of a list: `{ data, next_cursor }`; `next_cursor` is null on the last page.
 *
 * @example
 * ```ts
 * const RunPage = page(Run);
 * ```
 */
export function page<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), next_cursor: z.string().nullable() });
}

/** Lenient reading of a page: extra fields kept, `next_cursor` optional. */
export function pageLenient<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item), next_cursor: z.string().nullable().optional() });
}
