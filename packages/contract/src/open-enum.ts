import { z } from 'zod';

/**
 * A string field read leniently (any string is accepted, as a client must for
 * a foreign server) whose known values still show in its type:
 * `'queued' | 'running' | … | (string & {})`: editors complete the known
 * values, `switch` statements narrow on them, and passing the field where a
 * known value is required (a `RunStatus` filter) needs a check such as
 * `isTerminalStatus` first, instead of compiling any string.
 *
 * @example
 * ```ts
 * const Status = openEnum(['queued', 'running'] as const);
 * type Status = z.output<typeof Status>; // 'queued' | 'running' | (string & {})
 * ```
 */
export function openEnum<const T extends readonly string[]>(_known: T) {
  return z.string().transform((value): T[number] | (string & {}) => value);
}
