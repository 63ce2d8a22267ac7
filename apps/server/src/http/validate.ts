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
  if (part === 'query') refuseRepeatedParameters(value);
  if (part === 'body') refuseBodyNotAnObject(value);
  const parsed = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.slice(0, 50).map((issue) => ({
    path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
    code: issue.code,
    message: part === 'query' ? queryIssueMessage(issue, value) : issue.message,
  }));
  const first = details[0];
  const where = first && first.path.length > 0 ? `${part}.${first.path.join('.')}` : part;
  const message =
    value === undefined && part === 'body'
      ? 'request body is required (JSON)'
      : `invalid ${part}: ${where}: ${first?.message ?? 'invalid'}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`;
  throw new ServiceError('invalid_request', message, { details });
}

/**
 * Every v1 request body is a JSON object. A body of JSON `null` read as no body at all (zod's
 * "expected object, received undefined"), and an array or a bare value as a type without a
 * field: say what was sent.
 */
function refuseBodyNotAnObject(body: unknown): void {
  if (body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body))) return;
  const got = body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`;
  const message = `request body must be a JSON object, got ${got}`;
  throw new ServiceError('invalid_request', message, {
    details: [{ path: [], code: 'invalid_type', message }],
  });
}

/**
 * A query parameter is text that the schema coerces: "abc" for a number read
 * as "expected number, received NaN", 1.5 for a whole one as "expected int,
 * received number". Say what was sent and what is wanted instead.
 */
function queryIssueMessage(issue: z.core.$ZodIssue, query: unknown): string {
  if (issue.code !== 'invalid_type' || issue.path.length !== 1) return issue.message;
  const given = (query as Record<PropertyKey, unknown> | null | undefined)?.[issue.path[0]!];
  if (typeof given !== 'string') return issue.message;
  const wanted =
    issue.expected === 'int' ? 'a whole number' : issue.expected === 'number' ? 'a number' : null;
  if (wanted === null) return issue.message;
  const shown = given.length > 40 ? `${given.slice(0, 40)}…` : given;
  return `expected ${wanted}, got ${JSON.stringify(shown)}`;
}

/**
 * No v1 query parameter is a list written as repeats (`ids` is comma-separated),
 * and the query string parser hands a repeated one over as an array, which the
 * schemas read as a wrong type ("expected number, received NaN"): say what it is.
 */
function refuseRepeatedParameters(query: unknown): void {
  if (typeof query !== 'object' || query === null) return;
  const details = Object.entries(query)
    .filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]))
    .map(([name, values]) => {
      const list = name === 'ids' ? ' (ids takes a comma-separated list)' : '';
      const message = `${name} is given ${values.length} times: give it once${list}`;
      return { path: [name], code: 'repeated_parameter', message };
    });
  const first = details[0];
  if (first)
    throw new ServiceError('invalid_request', `invalid query: query.${first.path[0]}: ${first.message}`, {
      details,
    });
}
