import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Pages for the real server to crawl, on 127.0.0.1: a small linked site, a
 * product page with JSON-LD, numbered pages, and `/hold/*` pages that do not
 * answer until `release()` (to catch a run while it is running).
 */
export interface FixtureSite {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  release(): void;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

export async function startFixtureSite(): Promise<FixtureSite> {
  const requests: string[] = [];
  let held: ServerResponse[] = [];
  let holding = true;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push(path);
    const html = (body: string) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (path === '/robots.txt') return void res.writeHead(404).end();
    if (path === '/') {
      return html(
        page('Home', '<p>Welcome home.</p><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a>'),
      );
    }
    if (/^\/[abc]$/.test(path)) {
      return html(
        page(`Page ${path.slice(1).toUpperCase()}`, `<p>Hello from ${path}.</p><a href="/d">D</a>`),
      );
    }
    if (path === '/d') return html(page('Page D', '<p>The deepest page.</p>'));
    if (path.startsWith('/n/')) return html(page(`Numbered ${path.slice(3)}`, '<p>One of many.</p>'));
    if (path === '/product') {
      const jsonLd = JSON.stringify({
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: 'Brass Desk Lamp',
        offers: { '@type': 'Offer', price: '49.90', priceCurrency: 'EUR' },
      });
      return html(
        `<!doctype html><html><head><title>Brass Desk Lamp</title><script type="application/ld+json">${jsonLd}</script></head>` +
          '<body><main><h1>Brass Desk Lamp</h1><p class="price">49.90 EUR</p></main></body></html>',
      );
    }
    if (path === '/article') {
      const jsonLd = JSON.stringify({
        '@context': 'https://schema.org',
        '@type': 'NewsArticle',
        headline: 'Lamps light up the city',
        datePublished: '2026-11-20T08:30:00Z',
      });
      return html(
        `<!doctype html><html><head><title>Lamps light up the city</title><script type="application/ld+json">${jsonLd}</script></head>` +
          '<body><main><h1>Lamps light up the city</h1><p>Published 20 November 2026.</p></main></body></html>',
      );
    }
    if (path.startsWith('/hold/')) {
      if (!holding) return html(page(`Held ${path}`, '<p>Released.</p>'));
      held.push(res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    release: () => {
      holding = false;
      for (const res of held) {
        if (!res.destroyed)
          res.writeHead(200, { 'content-type': 'text/html' }).end(page('Held', '<p>Released.</p>'));
      }
      held = [];
    },
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
