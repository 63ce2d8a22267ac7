/**
 * Semantic search through the HTTP API: a server configured with an
 * OpenAI-compatible embeddings endpoint (a real HTTP server on 127.0.0.1
 * speaking that protocol, with a toy model, see fake-embeddings.ts) embeds the
 * pages it indexes and each plain query, and fuses the vector ranking with the
 * lexical one. No claim about ranking quality: that needs a real model.
 */
import { SearchAnswer } from '@webdata/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { waitForRun } from './api-client.js';
import { type EmbeddingsRequest, FakeEmbeddingsServer } from './fake-embeddings.js';
import { FixtureSite } from './fixture-site.js';
import { startTestServer, type TestServer } from './test-server.js';

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><article><h1>${title}</h1><p>${text}</p></article></main></body></html>`;

const PAGES: Record<string, string> = {
  '/': page(
    'Garage handbook',
    'Wash the sedan every week and check the tyre pressure of each car before a long trip.',
  ),
  '/kennel': page(
    'Kennel rules',
    'Every puppy gets a walk twice a day; canine visitors are welcome on weekends.',
  ),
  '/harbour': page('Harbour notes', 'The marine forecast warns of high waves on the open sea tonight.'),
};

const fake = new FakeEmbeddingsServer();
let site: FixtureSite;
let server: TestServer;
/** What the endpoint was asked while the pages were indexed. */
let indexing: EmbeddingsRequest[] = [];

async function search(query: string) {
  const { status, body } = await server.call('POST', '/api/v1/search', { query, collection: 'semantic' });
  expect(status, JSON.stringify(body)).toBe(200);
  return SearchAnswer.parse(body).data;
}

beforeAll(async () => {
  await fake.start();
  site = new FixtureSite(Object.fromEntries(Object.entries(PAGES).map(([path, body]) => [path, { body }])));
  await site.start();
  server = await startTestServer({
    embeddings: { baseUrl: fake.url, model: 'fake-embed-1', apiKey: 'sk-fake', timeoutMs: 10_000 },
  });
  const created = await server.call('POST', '/api/v1/crawl', {
    urls: Object.keys(PAGES).map((path) => `${site.url}${path}`),
    collection: 'semantic',
  });
  expect(created.status).toBe(202);
  expect((await waitForRun(server.call, created.body.id, 30_000)).status).toBe('completed');
  indexing = [...fake.received];
});

afterAll(async () => {
  await server?.close();
  await site?.stop();
  await fake.stop();
});

beforeEach(() => {
  fake.failing = false;
  fake.received.length = 0;
});

describe('search with an embeddings endpoint', () => {
  it('embeds every indexed page, and each query, with the configured model and key', async () => {
    expect(indexing.length).toBeGreaterThanOrEqual(Object.keys(PAGES).length);
    for (const request of indexing) {
      expect(request).toMatchObject({
        path: '/v1/embeddings',
        authorization: 'Bearer sk-fake',
        model: 'fake-embed-1',
      });
    }
    const inputs = indexing.flatMap((request) => request.input);
    for (const title of ['Garage handbook', 'Kennel rules', 'Harbour notes'])
      expect(
        inputs.some((text) => text.startsWith(`${title}\n`) && text.length > title.length + 20),
        title,
      ).toBe(true);
    await search('automobile');
    expect(fake.received).toEqual([
      {
        path: '/v1/embeddings',
        authorization: 'Bearer sk-fake',
        model: 'fake-embed-1',
        input: ['automobile'],
      },
    ]);
  });

  it('finds a page by a word it does not hold, through the vector ranking', async () => {
    const hits = await search('automobile');
    expect(hits[0]?.url).toBe(`${site.url}/`);
    // A hit found only by meaning shows the start of its nearest passage, escaped.
    expect(hits[0]?.snippet).toContain('Wash the sedan');
    expect((await search('dogs')).map((hit) => hit.url)).toEqual([`${site.url}/kennel`]);
    // A page pointing nowhere near the query is no hit.
    expect(await search('qzxvwkj')).toEqual([]);
  });

  it('keeps strict syntax lexical, and answers lexically when the endpoint fails', async () => {
    // A +must word means exactly that word: no page holds "automobile".
    const { status, body } = await server.call('POST', '/api/v1/search', {
      query: '+automobile',
      collection: 'semantic',
    });
    expect(status).toBe(200);
    expect(SearchAnswer.parse(body).data).toEqual([]);
    fake.failing = true;
    expect(await search('automobile')).toEqual([]);
    expect((await search('puppy'))[0]?.url).toBe(`${site.url}/kennel`);
  });
});
