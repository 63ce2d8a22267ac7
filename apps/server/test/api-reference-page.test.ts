/**
 * `GET /docs` in a real Chromium: the API reference page renders every
 * endpoint of the contract from the server's own OpenAPI document, with its
 * script served by the server itself, and the browser attempts no request
 * beyond 127.0.0.1 (every request is intercepted, recorded, and aborted if it
 * would leave the machine).
 */
import { ENDPOINTS } from '@webdata/contract';
import type { Browser } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchTestChromium } from './chromium.js';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchTestChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('GET /docs', () => {
  it('needs no API key, and serves the viewer from the server, not a CDN', async () => {
    const redirect = await request(`${server.url}/docs`);
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/docs/');
    await redirect.body.dump();
    const page = await request(`${server.url}/docs/`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const html = await page.body.text();
    expect(html).toContain('/api/v1/openapi.json');
    expect(html).not.toMatch(/<script[^>]+src="(https?:)?\/\//);
    const script = await request(`${server.url}/docs/js/scalar.js`);
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect((await script.body.text()).length).toBeGreaterThan(100_000);
  });

  it("sends the server's own address (the one its start banner prints) to the reference, with no key", async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const root = await request(`${server.url}/`, { method });
      expect(root.statusCode, method).toBe(302);
      expect(root.headers.location).toBe('/docs/');
      await root.body.dump();
    }
    // Only the root: another unknown path still asks for a key first, so routes cannot be probed.
    const other = await request(`${server.url}/index.html`);
    expect(other.statusCode).toBe(401);
    await other.body.dump();
  });

  it("answers a path under /docs that the viewer does not serve with the server's own 404 body", async () => {
    const missing = await request(`${server.url}/docs/no-such-file.js`);
    expect(missing.statusCode).toBe(404);
    const body = (await missing.body.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('not_found');
    expect(body.error.message).toContain('/docs/no-such-file.js');
    const head = await request(`${server.url}/docs/`, { method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
    await head.body.dump();
  });

  it('shows every endpoint of the contract in Chromium, with no request beyond 127.0.0.1', async () => {
    const context = await browser.newContext();
    const local: string[] = [];
    const outside: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).hostname === '127.0.0.1') {
        local.push(url);
        return route.continue();
      }
      outside.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    page.on('websocket', (socket) => outside.push(socket.url()));
    try {
      const response = await page.goto(`${server.url}/docs`);
      expect(response?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/docs/');
      for (const endpoint of ENDPOINTS) {
        const name = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
        await expect
          .poll(
            () =>
              page.evaluate(
                ({ method, path }) =>
                  // An element showing exactly the path, beside the method (Scalar writes DELETE as "del").
                  Array.from(document.querySelectorAll('body *')).some((element) => {
                    if (element.children.length > 0 || element.textContent?.trim() !== path) return false;
                    const row =
                      element.parentElement?.textContent?.replace(/\s+/g, ' ').trim().toLowerCase() ?? '';
                    return row.startsWith(method) || (method === 'delete' && row.startsWith('del '));
                  }),
                { method: endpoint.method, path: endpoint.path },
              ),
            { message: `${name} is on the page`, timeout: 20_000 },
          )
          .toBe(true);
        await expect
          .poll(() => page.getByText(endpoint.summary, { exact: true }).first().isVisible(), {
            message: `the summary of ${name} is on the page`,
            timeout: 5000,
          })
          .toBe(true);
      }
      expect(local).toEqual(
        expect.arrayContaining([`${server.url}/docs/js/scalar.js`, `${server.url}/api/v1/openapi.json`]),
      );
      expect(outside).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
