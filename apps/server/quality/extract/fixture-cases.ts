import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ExtractionSchema } from '@webdata/contract';

/** One fixture page with the schema, query and the object a person would extract from it. */
export interface ExtractionCase {
  /** File name under `pages/`. */
  file: string;
  schema: ExtractionSchema;
  query?: string | undefined;
  expected: Record<string, unknown>;
  /** The page's HTML, read by the loader. */
  html: string;
}

/** The fixtures folder shipped with the server's tests. */
export const DEFAULT_CASES_DIR = fileURLToPath(new URL('../../test/fixtures/extract/', import.meta.url));

/**
 * Loads `cases.json` and every page it names from a fixtures folder
 * (default: `apps/server/test/fixtures/extract/`). Used by the accuracy test
 * here and by HTTP-level tests that serve the pages from 127.0.0.1.
 */
export function loadExtractionCases(dir: string = DEFAULT_CASES_DIR): ExtractionCase[] {
  const base = dir.endsWith('/') ? dir : `${dir}/`;
  const raw = JSON.parse(readFileSync(`${base}cases.json`, 'utf8')) as Omit<ExtractionCase, 'html'>[];
  return raw.map((c) => ({ ...c, html: readFileSync(`${base}pages/${c.file}`, 'utf8') }));
}
