import { describe, expect, it } from 'vitest';
import { CollectionPage, SearchAnswer, SearchAnswerLenient, SearchRequest } from './search.js';
import { expectIssueAt } from './test-helpers.js';

describe('SearchRequest', () => {
  it('accepts a query and fills defaults', () => {
    expect(SearchRequest.parse({ query: 'retry policy' })).toEqual({
      query: 'retry policy',
      collection: 'default',
      limit: 10,
    });
  });

  it('rejects an empty or blank query, a bad limit, a bad filter', () => {
    expectIssueAt(SearchRequest, { query: '' }, ['query']);
    expectIssueAt(SearchRequest, { query: '   ' }, ['query']);
    expectIssueAt(SearchRequest, {}, ['query']);
    expectIssueAt(SearchRequest, { query: 'x', limit: 1000 }, ['limit']);
    expectIssueAt(SearchRequest, { query: 'x', filters: { url_prefix: '/docs' } }, ['filters', 'url_prefix']);
    expectIssueAt(SearchRequest, { query: 'x', filters: { site: 'a b' } }, ['filters', 'site']);
  });
});

describe('SearchAnswer and collections', () => {
  const hit = {
    document_id: 'doc_1',
    url: 'https://docs.example/retries',
    title: 'Retries',
    snippet: 'configure <mark>retries</mark> with backoff',
    score: 12.5,
    collection: 'default',
    indexed_at: '2026-11-22T10:15:30.123Z',
  };

  it('accepts an answer and rejects a hit without a url', () => {
    expect(SearchAnswer.safeParse({ data: [hit], next_cursor: null }).success).toBe(true);
    const { url: _url, ...noUrl } = hit;
    expectIssueAt(SearchAnswer, { data: [noUrl], next_cursor: null }, ['data', 0, 'url']);
  });

  it('reads a foreign answer leniently', () => {
    expect(SearchAnswerLenient.safeParse({ data: [{ url: 'https://x.example/', rank: 1 }] }).success).toBe(
      true,
    );
  });

  it('accepts a collection page', () => {
    const page = { data: [{ name: 'default', document_count: 3, updated_at: null }], next_cursor: null };
    expect(CollectionPage.safeParse(page).success).toBe(true);
  });
});
