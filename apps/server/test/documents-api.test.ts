/**
 * An indexed document's full content end to end through the HTTP API: pages
 * served from 127.0.0.1 are crawled into collections by real runs, searched
 * with `POST /api/v1/search`, and the document a hit names is read with
 * `GET /api/v1/collections/{collection}/documents/{documentId}`. Every
 * answer is checked against the contract's strict schemas (the test server
 * validates its responses too).
 */
import type { ServerResponse } from 'node:http';
import { DocumentContent, ErrorBody, ResultPage, SearchAnswer } from '@webdata/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCall, apiClient, waitForRun } from './api-client.js';
import { FixtureSite } from './fixture-site.js';
import { startTestServer, type TestServer } from './test-server.js';

/** A manual page with sections: the last one far from the words a search will match. */
function manualPage(title: string, sections: [heading: string, text: string][]): string {
  const body = sections.map(([heading, text]) => `<h2>${heading}</h2>\n<p>${text}</p>`).join('\n');
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body>
<nav><a href="/">Home</a> <a href="/lamps">Lamps</a></nav>
<main><article><h1>${title}</h1>
${body}
</article></main><footer>Lighthouse Service manual</footer></body></html>`;
}

const FILLER =
  'Keepers log every shift in the station book, note the weather at each watch and report any fault to the district office before the next tide.';

const LAMPS = manualPage('Trimming the lamps', [
  ['Wicks', 'Trim each wick square with the brass scissors before dusk so the flame burns without smoke.'],
  ...Array.from({ length: 12 }, (_, i): [string, string] => [`Duty ${i + 1}`, FILLER]),
  ['Storing paraffin', 'Keep the paraffin casks in the stone store, away from the lantern room.'],
]);

/** The fog page changes between crawls, so a test can see which version the document shows. */
let fogEdition = 'first';
const fogPage = () =>
  manualPage('Fog signals', [
    ['Sounding the horn', `Sound the horn twice a minute while fog hides the light (${fogEdition} edition).`],
  ]);

let site: FixtureSite;
let server: TestServer;
let call: ApiCall;

async function crawl(body: Record<string, unknown>, key?: string) {
  const client = key ? apiClient(server.url, key) : call;
  const created = await client('POST', '/api/v1/crawl', body);
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const run = await waitForRun(client, created.body.id, 30_000);
  expect(run.status).toBe('completed');
  return run as { id: string };
}

async function firstHit(query: string, collection: string) {
  const { status, body } = await call('POST', '/api/v1/search', { query, collection });
  expect(status, JSON.stringify(body)).toBe(200);
  const hit = SearchAnswer.parse(body).data[0];
  expect(hit, `no hit for ${query} in ${collection}`).toBeDefined();
  return hit!;
}

const documentPath = (collection: string, id: string, query = '') =>
  `/api/v1/collections/${collection}/documents/${encodeURIComponent(id)}${query}`;

async function expectNotFound(path: string, message: string, key?: string) {
  const client = key ? apiClient(server.url, key) : call;
  const { status, body } = await client('GET', path);
  expect(status, JSON.stringify(body)).toBe(404);
  const { error } = ErrorBody.parse(body);
  expect(error.code).toBe('not_found');
  expect(error.message).toBe(message);
}

beforeAll(async () => {
  site = new FixtureSite({
    '/lamps': { body: LAMPS },
    '/fog': (_request, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fogPage());
    },
  });
  await site.start();
  server = await startTestServer();
  call = server.call;
  // Markdown is a crawl's default format; the second collection's run stores plain text only.
  await crawl({ urls: [`${site.url}/lamps`, `${site.url}/fog`], collection: 'manual' });
  await crawl({ urls: [`${site.url}/lamps`], collection: 'plain', formats: ['text'] });
});

afterAll(async () => {
  await server?.close();
  await site?.stop();
});

describe('GET /api/v1/collections/{collection}/documents/{documentId}', () => {
  it("serves a search hit's whole page as Markdown: the same page the crawl stored, far past the snippet", async () => {
    const hit = await firstHit('brass scissors', 'manual');
    expect(hit.url).toBe(`${site.url}/lamps`);
    expect(hit.snippet).not.toContain('paraffin');

    const { status, headers, body } = await call('GET', documentPath('manual', hit.document_id));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(String(headers['content-type'])).toMatch(/^application\/json/);
    const document = DocumentContent.parse(body);
    expect(document).toMatchObject({
      id: hit.document_id,
      collection: 'manual',
      url: hit.url,
      title: hit.title,
      format: 'markdown',
      indexed_at: hit.indexed_at,
    });
    expect(document.content).toMatch(/^# Trimming the lamps$/m);
    expect(document.content).toMatch(/^## Storing paraffin$/m);
    expect(document.content).toContain('Keep the paraffin casks in the stone store');

    // Exactly the Markdown the crawl's result holds for that page.
    const runs = (await call('GET', '/api/v1/runs?type=crawl')).body.data as { id: string }[];
    const stored: string[] = [];
    for (const run of runs) {
      const page = ResultPage.parse(
        (await call('GET', `/api/v1/runs/${run.id}/results?include=content&format=markdown`)).body,
      );
      for (const result of page.data) if (result.final_url === hit.url) stored.push(String(result.content));
    }
    expect(stored).toContain(document.content);
  });

  it('serves the indexed plain text with format=text, and either format raw by Accept', async () => {
    const hit = await firstHit('brass scissors', 'manual');
    const text = DocumentContent.parse(
      (await call('GET', documentPath('manual', hit.document_id, '?format=text'))).body,
    );
    expect(text.format).toBe('text');
    expect(text.content).toContain('Trim each wick square with the brass scissors');
    expect(text.content).toContain('Keep the paraffin casks in the stone store');
    expect(text.content).not.toMatch(/^#/m);

    const markdown = await call('GET', documentPath('manual', hit.document_id), undefined, {
      accept: 'text/markdown',
    });
    expect(markdown.status).toBe(200);
    expect(String(markdown.headers['content-type'])).toMatch(/^text\/markdown; charset=utf-8/);
    expect(markdown.body).toMatch(/^# Trimming the lamps$/m);

    const plain = await call('GET', documentPath('manual', hit.document_id), undefined, {
      accept: 'text/plain',
    });
    expect(String(plain.headers['content-type'])).toMatch(/^text\/plain; charset=utf-8/);
    expect(plain.body).toBe(text.content);
  });

  it('falls back to the indexed text when the indexing run stored no Markdown, and says so when asked for it', async () => {
    const hit = await firstHit('brass scissors', 'plain');
    const document = DocumentContent.parse((await call('GET', documentPath('plain', hit.document_id))).body);
    expect(document.format).toBe('text');
    expect(document.content).toContain('Keep the paraffin casks in the stone store');
    const { status, body } = await call('GET', documentPath('plain', hit.document_id, '?format=markdown'));
    expect(status).toBe(404);
    expect(ErrorBody.parse(body).error).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('format=text'),
    });
    // Accept: Markdown preferred, anything else after: the text it holds, not a 404 (it was one).
    const path = documentPath('plain', hit.document_id);
    const preferred = await call('GET', path, undefined, { accept: 'text/markdown, text/plain;q=0.5' });
    expect(preferred.status).toBe(200);
    expect(String(preferred.headers['content-type'])).toMatch(/^text\/plain/);
    expect(preferred.headers.vary).toMatch(/\bAccept\b/i);
    const browser = await call('GET', path, undefined, { accept: 'text/markdown, */*;q=0.8' });
    expect(DocumentContent.parse(browser.body).format).toBe('text');
    expect(browser.headers.vary).toMatch(/\bAccept\b/i);
  });

  it('shows the page as it was indexed last when a later run crawls it again', async () => {
    const before = await firstHit('horn', 'manual');
    expect(
      DocumentContent.parse((await call('GET', documentPath('manual', before.document_id))).body).content,
    ).toContain('(first edition)');
    fogEdition = 'second';
    await crawl({ urls: [`${site.url}/fog`], collection: 'manual' });
    const after = await firstHit('horn', 'manual');
    expect(after.document_id).toBe(before.document_id);
    for (const format of ['markdown', 'text']) {
      const { content } = DocumentContent.parse(
        (await call('GET', documentPath('manual', after.document_id, `?format=${format}`))).body,
      );
      expect(content, format).toContain('(second edition)');
      expect(content, format).not.toContain('(first edition)');
    }
  });

  it('answers 404 in the one error body for an unknown collection, an unknown document, and a document of another collection', async () => {
    const hit = await firstHit('brass scissors', 'manual');
    await expectNotFound(documentPath('nowhere', hit.document_id), 'collection not found');
    await expectNotFound(documentPath('manual', 'doc_unknown'), 'document not found');
    await expectNotFound(documentPath('manual', 'not-a-doc-id'), 'document not found');
    // The same page indexed into "plain" is another document; this id is not one of "plain".
    await expectNotFound(documentPath('plain', hit.document_id), 'document not found');
  });

  it("answers another key's collection with 404, as if it did not exist", async () => {
    const hit = await firstHit('brass scissors', 'manual');
    const stranger = await server.createKey();
    await expectNotFound(documentPath('manual', hit.document_id), 'collection not found', stranger);
    // Once the stranger has a "manual" collection of its own, the id is still not one of its documents.
    await crawl({ urls: [`${site.url}/fog`], collection: 'manual' }, stranger);
    await expectNotFound(documentPath('manual', hit.document_id), 'document not found', stranger);
    expect((await call('GET', documentPath('manual', hit.document_id))).status).toBe(200);
  });

  it('answers 400 to a bad collection name or format', async () => {
    for (const path of [
      documentPath('Not_A_Name', 'doc_x'),
      documentPath('manual', 'doc_x', '?format=html'),
      documentPath('manual', 'doc_x', '?format=text&extra=1'),
    ]) {
      const { status, body } = await call('GET', path);
      expect(status, path).toBe(400);
      expect(ErrorBody.parse(body).error.code).toBe('invalid_request');
    }
  });

  it('forgets the document with the last run that indexed it', async () => {
    const run = await crawl({ urls: [`${site.url}/lamps`], collection: 'short-lived' });
    const hit = await firstHit('brass scissors', 'short-lived');
    expect((await call('GET', documentPath('short-lived', hit.document_id))).status).toBe(200);
    expect((await call('DELETE', `/api/v1/runs/${run.id}`)).status).toBe(204);
    await expectNotFound(documentPath('short-lived', hit.document_id), 'collection not found');
  });
});

describe('POST /api/v1/search on a collection that does not exist', () => {
  it("answers 404 not_found for an unknown name and another key's collection", async () => {
    const stranger = await server.createKey();
    for (const [key, collection] of [
      [undefined, 'no-such-collection'],
      [stranger, 'plain'],
    ] as const) {
      const client = key ? apiClient(server.url, key) : call;
      const { status, body } = await client('POST', '/api/v1/search', { query: 'brass', collection });
      expect(status, JSON.stringify(body)).toBe(404);
      expect(ErrorBody.parse(body).error).toMatchObject({
        code: 'not_found',
        message: 'collection not found',
      });
    }
  });
});
