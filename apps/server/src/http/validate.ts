import type { z } from 'zod';
import { ServiceError } from '../errors.js';

/**
 * Parses a request part with its contract schema; a failure is a 400
 * `invalid_request` whose `details` list every issue with the path of the
 * bad field, relative to the part (`["urls", 1]`).
 */
export function parseRequest<T extends z.ZodType>(
  schema: T,
  value: unknown,
  part: 'body' | 'query' | 'path',
): z.output<T> {
  const parsed = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.slice(0, 50).map((issue) => ({
    path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
    code: issue.code,
    message: issue.message,
  }));
  const first = details[0];
  const where = first && first.path.length > 0 ? `${part}.${first.path.join('.')}` : part;
  const message =
    value === undefined && part === 'body'
      ? 'request body is required (JSON)'
      : `invalid ${part}: ${where}: ${first?.message ?? 'invalid'}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`;
  throw new ServiceError('invalid_request', message, { details });
}
