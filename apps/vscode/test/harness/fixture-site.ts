import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Pages for the real server to fetch, served from 127.0.0.1:
 * - `/product/<slug>`: a product page (title, price, JSON-LD);
 * - `/slow/product/<slug>?ms=N`: the same after N ms (default 4 s), so a run stays in flight a while;
 * - `/hold/<anything>`: does not answer until released (`release()`, or a request to `/release`
 *   from a test inside VS Code), to catch a run in flight; `/hold-again` holds again;
 * - `/large`: a page of about 2 MB of text, for a large result document.
 */
export interface FixtureSite {
  url: string;
  release(): void;
  close(): Promise<void>;
}

export const PRODUCTS: Record<string, { name: string; price: string }> = {
  lamp: { name: 'Brass Desk Lamp', price: '49.90' },
  chair: { name: 'Oak Reading Chair', price: '189.00' },
  kettle: { name: 'Enamel Kettle', price: '35.50' },
};

function productPage(slug: string): string | undefined {
  const product = PRODUCTS[slug];
  if (!product) return undefined;
  const jsonLd = JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    offers: { '@type': 'Offer', price: product.price, priceCurrency: 'EUR' },
  });
  return (
    `<!doctype html><html><head><title>${product.name}</title>` +
    `<script type="application/ld+json">${jsonLd}</script></head>` +
    `<body><main><h1>${product.name}</h1><p class="price">${product.price} EUR</p>` +
    '<p>Handmade, shipped in two days.</p></main></body></html>'
  );
}

function largePage(): string {
  const paragraph =
    '<p>The quick brown fox jumps over the lazy dog while the lamp keeps the reading corner bright. </p>';
  const sections = Array.from({ length: 400 }, (_, i) => `<h2>Section ${i + 1}</h2>${paragraph.repeat(50)}`);
  return `<!doctype html><html><head><title>A Very Long Page</title></head><body><main><h1>A Very Long Page</h1>${sections.join('')}</main></body></html>`;
}

export async function startFixtureSite(): Promise<FixtureSite> {
  let held: ServerResponse[] = [];
  let holding = true;
  const large = largePage();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const html = (body: string) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (url.pathname === '/robots.txt') return void res.writeHead(404).end();
    if (url.pathname === '/large') return html(large);
    if (url.pathname === '/release') {
      release();
      return html('<p>released</p>');
    }
    if (url.pathname === '/hold-again') {
      holding = true;
      return html('<p>holding</p>');
    }
    const product = /^\/(slow\/)?product\/([a-z]+)$/.exec(url.pathname);
    if (product) {
      const page = productPage(product[2]!);
      if (!page) return void res.writeHead(404).end('no such product');
      if (!product[1]) return html(page);
      const timer = setTimeout(
        () => html(page),
        Math.min(60_000, Number(url.searchParams.get('ms') ?? 4_000)),
      );
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if (url.pathname.startsWith('/hold/')) {
      if (!holding)
        return html('<html><head><title>Released</title></head><body><p>Released.</p></body></html>');
      held.push(res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  function release() {
    holding = false;
    for (const res of held) {
      if (!res.destroyed) {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><head><title>Released</title></head><body><p>Released.</p></body></html>');
      }
    }
    held = [];
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    release,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
