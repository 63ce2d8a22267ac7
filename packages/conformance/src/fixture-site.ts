import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The words the fixture pages are about. Search tests look for them; they are
 * made up so that no other indexed content can match them by chance.
 */
export const FIXTURE_WORDS = { common: 'zephyrquill', rare: 'glimmerfen' } as const;

/** What the product page's extraction should give. */
export const FIXTURE_PRODUCT = { name: 'Conformance Kettle', price: 49.5, currency: 'EUR' } as const;

/** How long `/slow` holds its answer, in milliseconds: longer than any test waits. */
export const SLOW_PAGE_MS = 60_000;

function page(title: string, links: string[], text: string): string {
  const anchors = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><main><article><h1>${title}</h1><p>${text}</p><ul>${anchors}</ul></article></main></body></html>`;
}

const { common, rare } = FIXTURE_WORDS;

/** Fixed pages of the fixture site, by path. */
const PAGES: Record<string, string> = {
  '/': page(
    'Conformance Home',
    ['/a', '/b', '/c'],
    `The home page of the conformance fixture site. It mentions ${common} once.`,
  ),
  '/a': page(
    'Page A',
    ['/', '/b'],
    `Page A is about ${common} lanterns and ${common} weaving, described at enough length to be the main content.`,
  ),
  '/b': page(
    'Page B',
    ['/a', '/c'],
    `Page B is about the ${rare} marshes, with a single mention of ${common} near its end for good measure.`,
  ),
  '/c': page(
    'Page C',
    ['/'],
    'Page C is about nothing in particular, but it says so in several plain words.',
  ),
  '/deep/': page('Deep Start', ['/deep/1', '/deep/2'], 'The start of a small tree of pages for deep crawls.'),
  '/deep/1': page('Deep One', ['/deep/', '/deep/1/x'], 'The first branch of the tree, one level down.'),
  '/deep/2': page('Deep Two', ['/deep/'], 'The second branch of the tree, one level down.'),
  '/deep/1/x': page('Deep One X', ['/deep/1'], 'A leaf two levels down, beyond a depth of one.'),
  '/product': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${FIXTURE_PRODUCT.name}</title>
<script type="application/ld+json">${JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: FIXTURE_PRODUCT.name,
    offers: {
      '@type': 'Offer',
      price: String(FIXTURE_PRODUCT.price),
      priceCurrency: FIXTURE_PRODUCT.currency,
    },
  })}</script></head>
<body><main><h1>${FIXTURE_PRODUCT.name}</h1><p class="price">${FIXTURE_PRODUCT.price} ${FIXTURE_PRODUCT.currency}</p>
<p>A kettle that boils water for conformance tests, sold by the fixture site.</p></main></body></html>`,
};

/**
 * The fixture site the conformance suite asks the server under test to fetch.
 * A foreign server is pointed at a copy of it through `WEBDATA_FIXTURE_URL`;
 * it must serve the same paths:
 *
 * - `/`, `/a`, `/b`, `/c`: linked HTML pages (same-site links only);
 * - `/deep/` → `/deep/1`, `/deep/2`; `/deep/1` → `/deep/1/x` (a tree for depth limits);
 * - `/product`: a product page (JSON-LD `Product`, see {@link FIXTURE_PRODUCT});
 * - `/missing`: 404; `/slow`: answers only after {@link SLOW_PAGE_MS};
 * - `/flaky/<token>`: 500 the first time a token is asked for, 200 afterwards;
 * - `/robots.txt`: allows everything.
 */
export class FixtureSite {
  private readonly server: Server;
  private readonly flakyTokens = new Set<string>();
  url = '';

  constructor() {
    this.server = createServer((request, response) => this.answer(request, response));
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? '/').split('?')[0]!;
    const html = PAGES[path];
    if (html !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else if (path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    } else if (path === '/slow') {
      const timer = setTimeout(() => {
        response.writeHead(200, { 'content-type': 'text/html' }).end(page('Slow', [], 'Finally.'));
      }, SLOW_PAGE_MS);
      response.once('close', () => clearTimeout(timer));
    } else if (path.startsWith('/flaky/')) {
      const firstTime = !this.flakyTokens.has(path);
      this.flakyTokens.add(path);
      if (firstTime) response.writeHead(500, { 'content-type': 'text/plain' }).end('first try fails');
      else
        response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(page('Flaky', [], 'The second try of a flaky page succeeds.'));
    } else {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    }
  }

  /**
   * Listens (by default on 127.0.0.1, an ephemeral port); returns the base URL
   * (no trailing slash), with the host as given.
   */
  async start(options: { host?: string; port?: number } = {}): Promise<string> {
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(options.port ?? 0, host, resolve);
    });
    const shown = host.includes(':') ? `[${host}]` : host;
    this.url = `http://${shown}:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** Stops at once, dropping held (`/slow`) answers. */
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
