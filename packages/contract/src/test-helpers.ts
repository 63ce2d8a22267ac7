import { expect } from 'vitest';
import type { z } from 'zod';

/**
 * Asserts that `schema` rejects `value` with an issue at `path` (test helper).
 * Returns the issues so a test can look closer.
 */
export function expectIssueAt(
  schema: z.ZodType,
  value: unknown,
  path: (string | number)[],
): z.core.$ZodIssue[] {
  const parsed = schema.safeParse(value);
  expect(parsed.success, `expected ${JSON.stringify(value)?.slice(0, 200)} to be rejected`).toBe(false);
  const issues = parsed.error?.issues ?? [];
  const paths = issues.map((issue) => issue.path.map(String).join('.'));
  expect(paths, `issues: ${JSON.stringify(issues)}`).toContain(path.map(String).join('.'));
  return issues;
}
