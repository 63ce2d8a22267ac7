import { CollectionPage, CollectionPageLenient, SearchAnswer, SearchAnswerLenient } from '@webdata/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRun, expectError, pollRun, preview, readAs } from '../src/checks.js';
import { FIXTURE_WORDS } from '../src/fixture-site.js';
import { apiClient } from '../src/http-client.js';
import { uniqueSuffix } from '../src/paths.js';
import { conformanceTarget } from '../src/target.js';

const target = conformanceTarget();
const call = apiClient(target.baseUrl, target.apiKey);
/** A collection of this file only, so counts and hits are ours. */
const collection = `conformance-${uniqueSuffix()}`;
let indexed = false;

beforeAll(async () => {
  if (!target.fixtureUrl) return;
  const site = target.fixtureUrl;
  const run = await pollRun(
    call,
    (
      await createRun(call, '/api/v1/crawl', {
        urls: ['/', '/a', '/b', '/c'].map((p) => `${site}${p}`),
        collection,
      })
    ).id,
  );
  expect(run.status).toBe('completed');
  const second = await pollRun(
    call,
    (await createRun(call, '/api/v1/crawl', { urls: [`${site}/c`], collection: `${collection}-b` })).id,
  );
  expect(second.status).toBe('completed');
  indexed = true;
});

async function search(body: Record<string, unknown>) {
  const response = await call('POST', '/api/v1/search', { body });
  expect(response.status, preview(response.body)).toBe(200);
  return readAs(target, SearchAnswerLenient, SearchAnswer, response.body);
}

describe('search', () => {
  it('[api-v1 Search] search answers ranked hits with <mark> snippets', async (context) => {
    if (!indexed)
      context.skip('needs indexed fixture pages: set WEBDATA_FIXTURE_URL against a foreign server');
    const answer = await search({ query: FIXTURE_WORDS.common, collection });
    expect(answer.data.map((hit) => new URL(hit.url).pathname).sort()).toEqual(['/', '/a', '/b']);
    const scores = answer.data.map((hit) => hit.score ?? 0);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const hit of answer.data) {
      expect(hit.snippet).toMatch(new RegExp(`<mark>${FIXTURE_WORDS.common}</mark>`, 'i'));
      if (hit.collection !== undefined) expect(hit.collection).toBe(collection);
    }
    // The page that is all about the word ranks above the one that mentions it once in passing.
    const order = answer.data.map((hit) => new URL(hit.url).pathname);
    expect(order.indexOf('/a')).toBeLessThan(order.indexOf('/b'));
  });

  it('[api-v1 Search] limit and cursor page through the hits', async (context) => {
    if (!indexed)
      context.skip('needs indexed fixture pages: set WEBDATA_FIXTURE_URL against a foreign server');
    const first = await search({ query: FIXTURE_WORDS.common, collection, limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await search({
      query: FIXTURE_WORDS.common,
      collection,
      limit: 2,
      cursor: first.next_cursor,
    });
    expect(second.data).toHaveLength(1);
    expect(second.next_cursor ?? null).toBeNull();
    const urls = [...first.data, ...second.data].map((hit) => hit.url);
    expect(new Set(urls).size).toBe(3);
  });

  it('[api-v1 Search] a rare word finds only its page; another collection finds nothing', async (context) => {
    if (!indexed)
      context.skip('needs indexed fixture pages: set WEBDATA_FIXTURE_URL against a foreign server');
    const rare = await search({ query: FIXTURE_WORDS.rare, collection });
    expect(rare.data.map((hit) => new URL(hit.url).pathname)).toEqual(['/b']);
    const elsewhere = await search({ query: FIXTURE_WORDS.rare, collection: `${collection}-b` });
    expect(elsewhere.data).toEqual([]);
  });

  it('[api-v1 Search] a collection nothing was indexed into answers 404 (a foreign server: or no hits)', async () => {
    const response = await call('POST', '/api/v1/search', {
      body: { query: FIXTURE_WORDS.rare, collection: `${collection}-empty` },
    });
    if (target.ownServer || response.status !== 200) {
      expectError(target, response, 404, 'not_found');
      return;
    }
    expect(readAs(target, SearchAnswerLenient, SearchAnswer, response.body).data).toEqual([]);
  });

  it('[api-v1 Search] filters.site and filters.url_prefix narrow the hits', async (context) => {
    if (!indexed)
      context.skip('needs indexed fixture pages: set WEBDATA_FIXTURE_URL against a foreign server');
    const site = target.fixtureUrl!;
    const prefixed = await search({
      query: FIXTURE_WORDS.common,
      collection,
      filters: { url_prefix: `${site}/a` },
    });
    expect(prefixed.data.map((hit) => hit.url)).toEqual([`${site}/a`]);
    const bySite = await search({
      query: FIXTURE_WORDS.common,
      collection,
      filters: { site: 'elsewhere.example' },
    });
    expect(bySite.data).toEqual([]);
  });

  it('[api-v1 Search] an empty query or a bad collection name answers 400', async () => {
    expectError(
      target,
      await call('POST', '/api/v1/search', { body: { query: '' } }),
      400,
      'invalid_request',
    );
    expectError(target, await call('POST', '/api/v1/search', { body: {} }), 400, 'invalid_request');
    expectError(
      target,
      await call('POST', '/api/v1/search', { body: { query: 'x', collection: 'Not A Name!' } }),
      400,
      'invalid_request',
    );
  });

  it('[spec §4 POST /search] query syntax characters are searched, never a server error', async () => {
    for (const query of ['"unbalanced', 'a AND OR NOT', '*', 'NEAR(', 'col:umn', '(((']) {
      const response = await call('POST', '/api/v1/search', { body: { query, collection } });
      // Without the fixture pages the collection may not exist: a 404 then, still no server error.
      if (!indexed && response.status === 404) {
        expectError(target, response, 404, 'not_found');
        continue;
      }
      expect(response.status, `${query}: ${preview(response.body)}`).toBe(200);
      readAs(target, SearchAnswerLenient, SearchAnswer, response.body);
    }
  });
});

describe('collections', () => {
  it('[api-v1 Search] GET /collections lists collections with document counts', async (context) => {
    if (!indexed)
      context.skip('needs indexed fixture pages: set WEBDATA_FIXTURE_URL against a foreign server');
    const response = await call('GET', '/api/v1/collections?limit=200');
    expect(response.status).toBe(200);
    const page = readAs(target, CollectionPageLenient, CollectionPage, response.body);
    const ours = page.data.find((entry) => entry.name === collection);
    expect(ours, preview(page.data)).toBeDefined();
    expect(ours?.document_count).toBe(4);
  });

  it('[api-v1 Lists] GET /collections pages with limit and cursor, each collection once', async (context) => {
    if (!indexed)
      context.skip('needs indexed fixture pages: set WEBDATA_FIXTURE_URL against a foreign server');
    const names: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const response = await call(
        'GET',
        `/api/v1/collections?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(response.status, preview(response.body)).toBe(200);
      const page = readAs(target, CollectionPageLenient, CollectionPage, response.body);
      expect(page.data.length).toBeLessThanOrEqual(1);
      names.push(...page.data.map((entry) => entry.name));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 500);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining([collection, `${collection}-b`]));
  });
});
