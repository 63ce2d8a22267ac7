import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ContentQuery,
  ListResultsQuery,
  Result,
  ResultContent,
  ResultContentLenient,
  ResultLenient,
  ResultPage,
  ScreenshotAccess,
} from './result.js';
import { expectIssueAt } from './test-helpers.js';

const exampleResult = {
  id: 'res_abc',
  run_id: 'run_xyz',
  url: 'https://example.org/a',
  final_url: 'https://example.org/a/',
  status: 'succeeded',
  title: 'A page',
  depth: 1,
  parent_url: 'https://example.org/',
  http_status: 200,
  content_type: 'text/markdown',
  data: null,
  has_screenshot: false,
  screenshot_error: null,
  error: null,
  created_at: '2026-11-22T10:15:30.123Z',
};

describe('Result', () => {
  it('accepts a succeeded and a failed result', () => {
    expect(ResultPage.safeParse({ data: [exampleResult], next_cursor: 'abc' }).success).toBe(true);
    const failed = {
      ...exampleResult,
      status: 'failed',
      final_url: null,
      http_status: null,
      error: { code: 'fetch_failed', message: 'connection refused' },
    };
    expect(Result.safeParse(failed).success).toBe(true);
  });

  it('rejects wrong types at their paths', () => {
    expectIssueAt(Result, { ...exampleResult, depth: '1' }, ['depth']);
    expectIssueAt(Result, { ...exampleResult, status: 'done' }, ['status']);
    expectIssueAt(Result, { ...exampleResult, http_status: 700 }, ['http_status']);
    expectIssueAt(Result, { ...exampleResult, id: 'run_abc' }, ['id']);
  });

  it('reads a foreign result leniently, keeping unknown fields', () => {
    const parsed = ResultLenient.parse({ id: 'r1', markdown: '# hi', status: 'partial' });
    expect(parsed.markdown).toBe('# hi');
    expect(parsed.status).toBe('partial');
  });
});

describe('results with their content', () => {
  it("reads a foreign result's content leniently but typed: one of the three content shapes", () => {
    const parsed = ResultContentLenient.parse({
      format: 'pdf-ish',
      content: ['https://example.org/'],
      extra: 1,
    });
    expectTypeOf(parsed.content).toEqualTypeOf<string | string[] | Record<string, unknown>>();
    expect(parsed).toMatchObject({ format: 'pdf-ish', content: ['https://example.org/'], extra: 1 });
    expectIssueAt(ResultContentLenient, { content: 42 }, ['content']);
  });
  it('asks for content by include and format, and carries it on a result', () => {
    expect(ListResultsQuery.parse({ include: 'content', format: 'markdown' })).toMatchObject({
      include: 'content',
      format: 'markdown',
    });
    expectIssueAt(ListResultsQuery, { include: 'everything' }, ['include']);
    expectIssueAt(ListResultsQuery, { include: 'content', format: 'pdf' }, ['format']);
    expect(Result.safeParse({ ...exampleResult, content: '# A' }).success).toBe(true);
    expect(Result.safeParse({ ...exampleResult, content: null }).success).toBe(true);
    expectIssueAt(Result, { ...exampleResult, content: 3 }, ['content']);
  });
});

describe('content and screenshot access', () => {
  it('accepts string, links and object content', () => {
    const base = { id: 'res_a', url: 'https://example.org/' };
    expect(ResultContent.safeParse({ ...base, format: 'markdown', content: '# A' }).success).toBe(true);
    expect(
      ResultContent.safeParse({ ...base, format: 'links', content: ['https://example.org/b'] }).success,
    ).toBe(true);
    expect(ResultContent.safeParse({ ...base, format: 'json', content: { price: 3 } }).success).toBe(true);
    expectIssueAt(ResultContent, { ...base, format: 'pdf', content: '' }, ['format']);
    expectIssueAt(ContentQuery, { format: 'xml' }, ['format']);
  });

  it('requires a URL and an expiry in a screenshot access', () => {
    expect(
      ScreenshotAccess.safeParse({ url: 'http://127.0.0.1/s?sig=1', expires_at: '2026-11-22T10:30:00.000Z' })
        .success,
    ).toBe(true);
    expectIssueAt(ScreenshotAccess, { url: 'not a url', expires_at: '2026-11-22T10:30:00.000Z' }, ['url']);
    expectIssueAt(ScreenshotAccess, { url: 'http://127.0.0.1/s' }, ['expires_at']);
  });
});
