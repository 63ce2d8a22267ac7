/**
 * Search and collections end to end through the HTTP API: realistic pages
 * are crawled into a collection by real runs, then searched with
 * `POST /api/v1/search` and listed with `GET /api/v1/collections`. Every
 * answer is checked against the contract's strict schemas.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { CollectionPage, ErrorBody, SearchAnswer, type SearchRequest } from '@webdata/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCall, apiClient, waitForRun } from './api-client.js';
import { type FixtureRoute, FixtureSite } from './fixture-site.js';
import { startTestServer, type TestServer } from './test-server.js';

/** A documentation page: title, headings, paragraphs and links, like a real docs site. */
function docPage(title: string, sections: [heading: string, text: string][], links: string[] = []): string {
  const body = sections.map(([heading, text]) => `<h2>${heading}</h2><p>${text}</p>`).join('\n');
  const nav = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><title>${title} | Acme Docs</title></head><body>
<nav><ul>${nav}</ul></nav><main><article><h1>${title}</h1>${body}</article></main>
<footer>Acme Cloud documentation. Copyright Acme Inc.</footer></body></html>`;
}

const NAV = [
  '/',
  '/docs/retries',
  '/docs/caching',
  '/docs/timeouts',
  '/blog/release-2',
  '/blog/scaling',
  '/blog/postmortem',
];

const DOCS_PAGES: Record<string, string> = {
  '/': docPage(
    'Acme Cloud documentation',
    [['Getting started', 'Acme Cloud runs your functions close to your users. Start with the guides below.']],
    NAV,
  ),
  '/docs/retries': docPage(
    'Configuring retries',
    [
      [
        'Retry policy',
        'Acme retries a failed request up to five times. Retries use exponential backoff with jitter so that many clients do not retry in lockstep.',
      ],
      [
        'Idempotent requests',
        'Only idempotent requests are retried automatically; set the retry header to opt in.',
      ],
    ],
    NAV,
  ),
  '/docs/caching': docPage(
    'Caching responses',
    [
      [
        'Cache headers',
        'Acme caches responses according to Cache-Control. A stale entry may be served while a background revalidation runs, and a failed revalidation is not one of the retries counted against your quota.',
      ],
      ['Purging', 'Purge an entry from the dashboard or with the purge endpoint of the API.'],
    ],
    NAV,
  ),
  '/docs/timeouts': docPage(
    'Timeouts and deadlines',
    [
      [
        'Request deadline',
        'Every Acme function has a deadline of thirty seconds. A request that runs longer is stopped and answers 504.',
      ],
    ],
    NAV,
  ),
  '/blog/release-2': docPage(
    'Acme 2.0 release notes',
    [['What is new', 'Version two brings regional storage, a faster scheduler and a new command line tool.']],
    NAV,
  ),
  '/blog/scaling': docPage(
    'How we scaled our workers',
    [
      [
        'Queues',
        'Acme moved its work queue to a sharded design; workers claim jobs in batches and lease them.',
      ],
    ],
    NAV,
  ),
  '/blog/postmortem': docPage(
    'Postmortem of the March outage',
    [
      [
        'Timeline',
        'A certificate expired at the edge; Acme traffic failed for forty minutes until it was renewed.',
      ],
    ],
    NAV,
  ),
};

const STATUS_PAGES: Record<string, string> = {
  '/': docPage(
    'Acme status',
    [['Current status', 'All Acme systems are operational. Subscribe to incident updates.']],
    ['/incidents'],
  ),
  '/incidents': docPage(
    'Incident history',
    [['Past incidents', 'The March certificate incident at Acme lasted forty minutes.']],
    ['/'],
  ),
};

const routesOf = (pages: Record<string, string>): Record<string, FixtureRoute> =>
  Object.fromEntries(Object.entries(pages).map(([path, body]) => [path, { body }]));

let docs: FixtureSite;
let status: FixtureSite;
let server: TestServer;
let call: ApiCall;

/** POST /api/v1/search, answer checked against the strict contract schema. */
async function search(request: SearchRequest, key?: string) {
  const client = key ? apiClient(server.url, key) : call;
  const { status: code, body } = await client('POST', '/api/v1/search', request);
  expect(code, JSON.stringify(body)).toBe(200);
  return SearchAnswer.parse(body);
}

async function collections(key?: string) {
  const client = key ? apiClient(server.url, key) : call;
  const { status: code, body } = await client('GET', '/api/v1/collections');
  expect(code).toBe(200);
  return CollectionPage.parse(body).data;
}

async function documentCount(name: string): Promise<number> {
  return (await collections()).find((c) => c.name === name)?.document_count ?? 0;
}

async function crawl(body: Record<string, unknown>) {
  const created = await call('POST', '/api/v1/crawl', body);
  expect(created.status).toBe(202);
  const run = await waitForRun(call, created.body.id, 30_000);
  expect(run.status).toBe('completed');
  return run;
}

beforeAll(async () => {
  docs = new FixtureSite(routesOf(DOCS_PAGES));
  status = new FixtureSite(routesOf(STATUS_PAGES));
  await docs.start();
  await status.start();
  server = await startTestServer();
  call = server.call;
  await crawl({ url: `${docs.url}/`, limit: 50, collection: 'docs' });
  await crawl({ url: `${status.url}/`, limit: 50, collection: 'docs' });
});

afterAll(async () => {
  await server?.close();
  await docs?.stop();
  await status?.stop();
});

const ALL_DOCS = Object.keys(DOCS_PAGES).length + Object.keys(STATUS_PAGES).length;

describe('POST /api/v1/search', () => {
  it('finds the page a phrase of its body comes from, with the words marked in the snippet', async () => {
    for (const query of ['exponential backoff with jitter', '"exponential backoff with jitter"']) {
      const answer = await search({ query, collection: 'docs' });
      expect(answer.data[0]?.url, query).toBe(`${docs.url}/docs/retries`);
      expect(answer.data[0]?.title).toBe('Configuring retries | Acme Docs');
      expect(answer.data[0]?.collection).toBe('docs');
      expect(answer.data[0]?.snippet).toMatch(/<mark>[^<]*exponential[^<]*<\/mark>/i);
    }
  });

  it('ranks a page with the word in its title above one that mentions it in passing', async () => {
    const answer = await search({ query: 'retries', collection: 'docs' });
    const urls = answer.data.map((hit) => hit.url);
    const titled = urls.indexOf(`${docs.url}/docs/retries`);
    const passing = urls.indexOf(`${docs.url}/docs/caching`);
    expect(titled).toBe(0);
    expect(passing).toBeGreaterThan(titled);
    expect(answer.data[0]!.score).toBeGreaterThan(answer.data[passing]!.score);
    for (const hit of answer.data) expect(hit.snippet).toContain('<mark>');
  });

  it('filters by site and by URL prefix', async () => {
    const host = new URL(status.url).host;
    const bySite = await search({ query: 'acme', collection: 'docs', limit: 50, filters: { site: host } });
    expect(bySite.data.map((hit) => hit.url).sort()).toEqual([`${status.url}/`, `${status.url}/incidents`]);

    const blog = await search({
      query: 'acme',
      collection: 'docs',
      limit: 50,
      filters: { url_prefix: `${docs.url}/blog/` },
    });
    expect(blog.data.map((hit) => hit.url).sort()).toEqual(
      ['/blog/postmortem', '/blog/release-2', '/blog/scaling'].map((path) => `${docs.url}${path}`),
    );
    // A word both sites have: the filter, not the query, keeps the other site out.
    const incident = await search({ query: 'forty minutes', collection: 'docs', filters: { site: host } });
    expect(incident.data.map((hit) => hit.url)).toEqual([`${status.url}/incidents`]);
  });

  it('pages through every hit with the cursor, without duplicates', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await search({
        query: 'acme',
        collection: 'docs',
        limit: 4,
        ...(cursor ? { cursor } : {}),
      });
      expect(answer.data.length).toBeLessThanOrEqual(4);
      seen.push(...answer.data.map((hit) => hit.document_id));
      cursor = answer.next_cursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(Math.ceil(ALL_DOCS / 4));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(ALL_DOCS);
    const firstPage = await search({ query: 'acme', collection: 'docs', limit: 4 });
    expect(seen.slice(0, 4)).toEqual(firstPage.data.map((hit) => hit.document_id));
  });

  it('answers 400 invalid_request to an empty query and an empty list to one with nothing to find', async () => {
    for (const query of ['', '   ']) {
      const { status: code, body } = await call('POST', '/api/v1/search', { query, collection: 'docs' });
      expect(code).toBe(400);
      expect(ErrorBody.parse(body).error.code).toBe('invalid_request');
    }
    // FTS5 operators are words: with a required word no page holds, nothing is found.
    for (const query of ['?!.,;:', '"" ** ()', 'qzxvwkj', '+qzxvwkj AND OR NOT NEAR', '-acme']) {
      const answer = await search({ query, collection: 'docs' });
      expect(answer.data, query).toEqual([]);
      expect(answer.next_cursor).toBeNull();
    }
  });
});

describe('what a first-time user ran into (issue 11)', () => {
  const ARTICLES: Record<string, string> = {
    '/': docPage(
      'Workshop journal',
      [['Tools', 'A copper mallet and a review of the walnut bench.']],
      ['/articles/2'],
    ),
    '/articles/2': docPage(
      'Second article',
      [['Metals', 'Brass fittings, copper pipes and a short review.']],
      ['/'],
    ),
  };
  let articles: FixtureSite;

  beforeAll(async () => {
    articles = new FixtureSite(routesOf(ARTICLES));
    await articles.start();
    await crawl({ url: `${articles.url}/`, limit: 10, collection: 'workshop' });
  });

  afterAll(async () => {
    await articles?.stop();
  });

  it("gives each hit its own page's snippet", async () => {
    // Words only one of the two pages holds, near the searched words.
    const own: Record<string, string> = { '/': 'mallet', '/articles/2': 'pipes' };
    for (const query of ['copper', 'review']) {
      const hits = (await search({ query, collection: 'workshop' })).data;
      expect(hits.map((h) => new URL(h.url).pathname).sort(), query).toEqual(['/', '/articles/2']);
      for (const hit of hits) {
        const path = new URL(hit.url).pathname;
        expect(hit.snippet, `${query} ${path}`).toContain(`<mark>${query}</mark>`);
        for (const [page, word] of Object.entries(own)) {
          if (page === path) expect(hit.snippet, `${query} ${path}`).toContain(word);
          else expect(hit.snippet, `${query} ${path}`).not.toContain(word);
        }
      }
    }
  });

  it('reads `walnut OR brass` as either word: both pages', async () => {
    const hits = (await search({ query: 'walnut OR brass', collection: 'workshop' })).data;
    expect(hits.map((h) => new URL(h.url).pathname).sort()).toEqual(['/', '/articles/2']);
  });
});

describe('GET /api/v1/collections', () => {
  it('lists the collection with its document count', async () => {
    const docsCollection = (await collections()).find((c) => c.name === 'docs');
    expect(docsCollection).toMatchObject({ name: 'docs', document_count: ALL_DOCS });
    expect(docsCollection?.updated_at).not.toBeNull();
  });
});

describe('indexing and runs', () => {
  it('finds pages of a crawl that is still running', async () => {
    // The start page answers at once; the pages it links to take seconds.
    const slow = new FixtureSite({
      '/': {
        body: docPage('Lighthouse keeper handbook', [['Lamps', 'Trim the lighthouse lamps.']], ['/a', '/b']),
      },
      '/a': slowPage('Fog signals', 5_000),
      '/b': slowPage('Tide tables', 5_000),
    });
    await slow.start();
    try {
      const created = await call('POST', '/api/v1/deep-crawl', { url: `${slow.url}/`, collection: 'live' });
      expect(created.status).toBe(202);
      let hits: string[] = [];
      const deadline = Date.now() + 4_000;
      while (hits.length === 0 && Date.now() < deadline) {
        // Until its first page is indexed, the collection does not exist (404).
        const answer = await call('POST', '/api/v1/search', { query: 'lighthouse', collection: 'live' });
        expect([200, 404], JSON.stringify(answer.body)).toContain(answer.status);
        if (answer.status === 200) hits = SearchAnswer.parse(answer.body).data.map((hit) => hit.url);
        if (hits.length === 0) await sleep(50);
      }
      expect(hits).toEqual([`${slow.url}/`]);
      const run = (await call('GET', `/api/v1/runs/${created.body.id}`)).body;
      expect(run.status).toBe('running');
      expect(run.stats.succeeded).toBeLessThan(run.stats.total);
      await call('POST', `/api/v1/runs/${created.body.id}/cancel`);
      await waitForRun(call, created.body.id, 10_000);
    } finally {
      await slow.stop();
    }
  });

  it('keeps one document when a second run crawls the same URL', async () => {
    await crawl({ urls: [`${docs.url}/docs/retries`, `${docs.url}/docs/caching`], collection: 'docs' });
    expect(await documentCount('docs')).toBe(ALL_DOCS);
    const answer = await search({ query: 'exponential backoff with jitter', collection: 'docs' });
    expect(answer.data.filter((hit) => hit.url === `${docs.url}/docs/retries`)).toHaveLength(1);
  });

  it('keeps documents while another run still indexes them, and removes them with the last run', async () => {
    const urls = [`${docs.url}/docs/timeouts`, `${docs.url}/blog/scaling`];
    const first = await crawl({ urls, collection: 'shared' });
    const second = await crawl({ urls, collection: 'shared' });
    expect(await documentCount('shared')).toBe(2);

    expect((await call('DELETE', `/api/v1/runs/${first.id}`)).status).toBe(204);
    expect(await documentCount('shared')).toBe(2);
    expect((await search({ query: 'deadline', collection: 'shared' })).data.map((hit) => hit.url)).toEqual([
      `${docs.url}/docs/timeouts`,
    ]);

    expect((await call('DELETE', `/api/v1/runs/${second.id}`)).status).toBe(204);
    expect((await collections()).map((c) => c.name)).not.toContain('shared');
    const gone = await call('POST', '/api/v1/search', { query: 'deadline', collection: 'shared' });
    expect(gone.status).toBe(404);
    expect(ErrorBody.parse(gone.body).error.code).toBe('not_found');
    // The same pages in another collection are untouched.
    expect((await search({ query: 'deadline', collection: 'docs' })).data).toHaveLength(1);
  });

  it('shows another owner none of it', async () => {
    const stranger = await server.createKey();
    expect(await collections(stranger)).toEqual([]);
    // Its collections are unknown to another key, as one never made is.
    for (const collection of ['docs', 'live', 'default']) {
      const { status: code, body } = await apiClient(server.url, stranger)('POST', '/api/v1/search', {
        query: 'acme',
        collection,
      });
      expect(code).toBe(404);
      expect(ErrorBody.parse(body).error).toMatchObject({
        code: 'not_found',
        message: 'collection not found',
      });
    }
    expect((await search({ query: 'acme', collection: 'docs' })).data.length).toBeGreaterThan(0);
  });
});

/** A page that answers after `ms` (aborted cleanly when the crawl is cancelled). */
function slowPage(title: string, ms: number): FixtureRoute {
  return (_request, response) => {
    const timer = setTimeout(() => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(docPage(title, [['Body', title]]));
    }, ms);
    response.once('close', () => clearTimeout(timer));
  };
}
