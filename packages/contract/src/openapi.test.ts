import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.js';

/** The endpoint table of the specification, read from the specification itself. */
function specificationEndpoints(): { method: string; path: string }[] {
  const spec = readFileSync(
    fileURLToPath(new URL('../../../docs/specification.md', import.meta.url)),
    'utf8',
  );
  const rows = [...spec.matchAll(/^\| (GET|POST|DELETE|PUT|PATCH) \| (\/api\/v1\/[^ |]*) \|/gm)];
  return rows.map((row) => ({ method: row[1]!.toLowerCase(), path: row[2]! }));
}

describe('OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('validates as OpenAPI 3.1 with a real validator', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('is checked by a validator that does reject a broken document', async () => {
    const broken = structuredClone(document) as {
      paths: Record<string, Record<string, { parameters: unknown[] }>>;
    };
    broken.paths['/api/v1/runs']!.get!.parameters.push({ name: 'x', in: 'body' });
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it("has every endpoint of the specification's table", () => {
    const endpoints = specificationEndpoints();
    expect(endpoints.length).toBe(13);
    const paths = document.paths as Record<string, Record<string, unknown>>;
    for (const { method, path } of endpoints) {
      expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });

  it('declares the x-api-key scheme, request bodies and error responses', () => {
    const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
    const extract = paths['/api/v1/extract']!.post!;
    expect(extract.requestBody).toBeDefined();
    expect(Object.keys(extract.responses as object)).toEqual(
      expect.arrayContaining(['202', '400', '401', '422', '429']),
    );
    expect((document.components as { securitySchemes: unknown }).securitySchemes).toEqual({
      ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    });
    expect(paths['/api/v1/signed/screenshots/{runId}/{resultId}']!.get!.security).toEqual([]);
  });

  it('is the document written to openapi.json', () => {
    const written = readFileSync(fileURLToPath(new URL('../openapi.json', import.meta.url)), 'utf8');
    expect(JSON.parse(written)).toEqual(document);
  });
});
