import { describe, expect, it } from 'vitest';
import { ExtractionSchema, ExtractRequest } from './extract.js';
import { LIMITS } from './limits.js';
import { expectIssueAt } from './test-helpers.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'product name' },
    price: { type: 'number' },
    offers: { type: 'array', items: { type: 'object', properties: { seller: { type: 'string' } } } },
  },
  required: ['name'],
};

describe('ExtractRequest', () => {
  it('accepts urls with a query and a schema, defaulting screenshot to false', () => {
    const parsed = ExtractRequest.parse({
      urls: ['https://shop.example/p/1'],
      query: 'name and price',
      schema,
    });
    expect(parsed.screenshot).toBe(false);
    expect(parsed.schema?.properties.name).toEqual({ type: 'string', description: 'product name' });
  });

  it('accepts a query alone and a schema alone', () => {
    expect(ExtractRequest.safeParse({ urls: ['http://a.example/'], query: 'the title' }).success).toBe(true);
    expect(ExtractRequest.safeParse({ urls: ['http://a.example/'], schema }).success).toBe(true);
  });

  it('rejects a body without urls at path urls', () => {
    expectIssueAt(ExtractRequest, { query: 'x' }, ['urls']);
  });

  it('rejects an empty url list, a non-array and wrong item types at the bad field', () => {
    expectIssueAt(ExtractRequest, { urls: [], query: 'x' }, ['urls']);
    expectIssueAt(ExtractRequest, { urls: 'https://a.example/', query: 'x' }, ['urls']);
    expectIssueAt(ExtractRequest, { urls: ['https://a.example/', 42], query: 'x' }, ['urls', 1]);
  });

  it('rejects ftp:// and relative URLs, naming the index', () => {
    const issues = expectIssueAt(
      ExtractRequest,
      { urls: ['https://ok.example/', 'ftp://files.example/a'], query: 'x' },
      ['urls', 1],
    );
    expect(issues[0]?.message).toMatch(/absolute http or https URL/);
    expectIssueAt(ExtractRequest, { urls: ['/relative/path'], query: 'x' }, ['urls', 0]);
    expectIssueAt(ExtractRequest, { urls: ['example.org'], query: 'x' }, ['urls', 0]);
    expectIssueAt(ExtractRequest, { urls: ['javascript:alert(1)'], query: 'x' }, ['urls', 0]);
  });

  it(`rejects ${LIMITS.maxUrlsPerRequest + 1} URLs and accepts ${LIMITS.maxUrlsPerRequest}`, () => {
    const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://a.example/${i}`);
    expect(ExtractRequest.safeParse({ urls: urls(100), query: 'x' }).success).toBe(true);
    const issues = expectIssueAt(ExtractRequest, { urls: urls(101), query: 'x' }, ['urls']);
    expect(issues[0]?.code).toBe('too_big');
  });

  it('rejects a schema without type "object"', () => {
    expectIssueAt(ExtractRequest, { urls: ['https://a.example/'], schema: { properties: {} } }, [
      'schema',
      'type',
    ]);
    expectIssueAt(
      ExtractRequest,
      { urls: ['https://a.example/'], schema: { type: 'array', properties: {} } },
      ['schema', 'type'],
    );
  });

  it('rejects wrong types: query as a number, screenshot as a string, properties as an array', () => {
    expectIssueAt(ExtractRequest, { urls: ['https://a.example/'], query: 7 }, ['query']);
    expectIssueAt(ExtractRequest, { urls: ['https://a.example/'], query: 'x', screenshot: 'yes' }, [
      'screenshot',
    ]);
    expectIssueAt(
      ExtractRequest,
      { urls: ['https://a.example/'], schema: { type: 'object', properties: [] } },
      ['schema', 'properties'],
    );
    expectIssueAt(
      ExtractRequest,
      { urls: ['https://a.example/'], schema: { type: 'object', properties: { a: { type: 'text' } } } },
      ['schema', 'properties', 'a', 'type'],
    );
  });

  it('names the JSON types when a property declares one that is not (it said only "Invalid input")', () => {
    for (const type of ['strin', ['string', 'text'], 42]) {
      const parsed = ExtractionSchema.safeParse({ type: 'object', properties: { a: { type } } });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
        [
          ['properties', 'a', 'type'],
          'type must be one of "string", "number", "integer", "boolean", "array", "object", "null", or an array of them',
        ],
      ]);
    }
  });

  it('rejects neither query nor schema, and unknown fields', () => {
    expectIssueAt(ExtractRequest, { urls: ['https://a.example/'] }, ['schema']);
    const parsed = ExtractRequest.safeParse({ urls: ['https://a.example/'], query: 'x', prompt: 'y' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.code).toBe('unrecognized_keys');
  });
});

describe('ExtractionSchema limits', () => {
  it('rejects a required name missing from properties, naming its index', () => {
    expectIssueAt(
      ExtractionSchema,
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] },
      ['required', 1],
    );
  });

  it('rejects a required name that only an object inherits (toString, constructor)', () => {
    expectIssueAt(
      ExtractionSchema,
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'toString', 'constructor'] },
      ['required', 1],
    );
    const nested = {
      type: 'object',
      properties: { a: { type: 'object', properties: {}, required: ['constructor'] } },
    };
    expectIssueAt(ExtractionSchema, nested, ['properties', 'a', 'required', 0]);
  });

  it('accepts properties named like inherited members', () => {
    const inherited = {
      type: 'object',
      properties: { constructor: { type: 'string' }, toString: { type: 'string' } },
      required: ['constructor', 'toString'],
    };
    expect(ExtractionSchema.parse(inherited)).toEqual(inherited);
  });

  it(`rejects nesting deeper than ${LIMITS.maxSchemaDepth} levels and accepts exactly that depth`, () => {
    const nested = (depth: number): Record<string, unknown> =>
      depth === 1 ? { type: 'string' } : { type: 'object', properties: { child: nested(depth - 1) } };
    expect(ExtractionSchema.safeParse(nested(LIMITS.maxSchemaDepth)).success).toBe(true);
    const issues = ExtractionSchema.safeParse(nested(LIMITS.maxSchemaDepth + 1)).error?.issues ?? [];
    expect(issues.some((issue) => /deeper than/.test(issue.message))).toBe(true);
  });

  it('rejects a schema larger than the byte limit', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`p${i}`, { type: 'string', description: 'd'.repeat(1000) }]),
    );
    const parsed = ExtractionSchema.safeParse({ type: 'object', properties });
    expect(parsed.error?.issues.some((issue) => /bytes/.test(issue.message))).toBe(true);
  });
});
