import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.js';
import {
  PAGE_ERROR_CODES,
  type PageErrorCode,
  PageErrorInfo,
  PageErrorInfoLenient,
  RUN_ERROR_CODES,
  RunErrorInfo,
  RunErrorInfoLenient,
} from './page-errors.js';
import { expectIssueAt } from './test-helpers.js';

const apiDoc = readFileSync(fileURLToPath(new URL('../../../docs/api.md', import.meta.url)), 'utf8');

/** The `| \`code\` | meaning |` rows of the API documentation's table under `heading`. */
function documentedCodes(heading: string): Record<string, string> {
  const start = apiDoc.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/api.md has no "${heading}" section`);
  const section = apiDoc.slice(start + heading.length + 2).split(/\n#{1,3} /)[0]!;
  const rows = [...section.matchAll(/^\| `([a-z_]+)` \| (.+) \|$/gm)];
  return Object.fromEntries(rows.map((row) => [row[1]!, row[2]!]));
}

describe('page and run error codes', () => {
  it('are the codes of the API documentation, each with the same meaning, no more and no fewer', () => {
    const pages = documentedCodes('### Page error codes');
    const runs = documentedCodes('### Run error codes');
    // The tables are read, not empty: a broken reader would make the comparison vacuous.
    expect(Object.keys(pages).length).toBeGreaterThanOrEqual(10);
    expect(Object.keys(runs)).toContain('all_items_failed');
    expect(pages).toEqual({ ...PAGE_ERROR_CODES });
    expect(runs).toEqual({ ...RUN_ERROR_CODES });
  });

  it('the strict reading refuses a code outside the registry; the lenient one keeps it, typed with the known ones', () => {
    expect(PageErrorInfo.parse({ code: 'too_large', message: 'm' }).code).toBe('too_large');
    expectIssueAt(PageErrorInfo, { code: 'teapot', message: 'm' }, ['code']);
    expectIssueAt(RunErrorInfo, { code: 'timeout', message: 'm' }, ['code']);
    expect(RunErrorInfo.parse({ code: 'all_items_failed', message: 'm' }).code).toBe('all_items_failed');

    const foreign = PageErrorInfoLenient.parse({ code: 'teapot', retry: true });
    expect(foreign).toEqual({ code: 'teapot', retry: true });
    expect(RunErrorInfoLenient.parse({ code: 'quota_exceeded' }).code).toBe('quota_exceeded');
    expectTypeOf(foreign.code).toEqualTypeOf<PageErrorCode | (string & {})>();
  });

  it('are enums with a description per code in the OpenAPI document', () => {
    const schemas = (
      buildOpenApiDocument().components as { schemas: Record<string, Record<string, unknown>> }
    ).schemas;
    for (const [id, registry] of [
      ['PageErrorCode', PAGE_ERROR_CODES],
      ['RunErrorCode', RUN_ERROR_CODES],
    ] as const) {
      const schema = schemas[id]!;
      expect(schema.enum, id).toEqual(Object.keys(registry));
      expect(schema['x-enumDescriptions'], id).toEqual(registry);
      for (const [code, meaning] of Object.entries(registry)) {
        expect(schema.description, id).toContain(`\`${code}\`: ${meaning}`);
      }
    }
    const result = schemas.Result as { properties: Record<string, unknown> };
    const run = schemas.Run as { properties: Record<string, unknown> };
    expect(JSON.stringify(result.properties.error)).toContain('"#/components/schemas/PageErrorCode"');
    expect(JSON.stringify(result.properties.screenshot_error)).toContain(
      '"#/components/schemas/PageErrorCode"',
    );
    expect(JSON.stringify(run.properties.error)).toContain('"#/components/schemas/RunErrorCode"');
  });
});
