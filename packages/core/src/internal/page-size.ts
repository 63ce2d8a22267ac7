import { throwError } from 'rxjs';
import type { z } from 'zod';
import { RequestValidationError } from '../errors.js';

/**
 * The size of each page a paged stream asks for, checked against the wire's
 * `limit` rule but reported under the caller's name `pageSize`: the server
 * would name its own `limit`, which the caller of a stream never wrote.
 * Either the size, or an observable failing with the `RequestValidationError`
 * (a stream fails on its first page request, not when it is made).
 *
 * @example
 * ```ts
 * const size = pageSizeOf('results', PageQuery.shape.limit, options.pageSize);
 * if (typeof size !== 'number') return size; // fails with the error
 * ```
 */
export function pageSizeOf(what: string, rule: z.ZodType<number>, pageSize: number | undefined) {
  const checked = rule.safeParse(pageSize);
  if (checked.success) return checked.data;
  const issues = checked.error.issues.map((issue) => ({ ...issue, path: ['pageSize'] }));
  return throwError(() => RequestValidationError.of(what, issues));
}
