import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/** A small site on 127.0.0.1 for the CLI to crawl: two articles, a product, a slow page, a held page and a 404. */
export async function startSite(): Promise<{ url: string; releaseHeld(): void; close(): Promise<void> }> {
  // `/held` answers only once the test releases it: a run that is surely still going when a
  // test interrupts it, however long a loaded machine takes to start the CLI.
  let released = false;
  const held = new Set<() => void>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const html = (body: string) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (path === '/robots.txt') return void res.writeHead(404).end();
    if (path === '/')
      return html(
        page('Lighthouse keeping', '<p>A guide. <a href="/lamps">Lamps</a> <a href="/tides">Tides</a></p>'),
      );
    if (path === '/lamps')
      return html(
        page(
          'Lamps',
          '<p>The lamp is lit at dusk and trimmed at midnight.</p><ul><li>Wick</li><li>Oil</li></ul>',
        ),
      );
    if (path === '/tides') return html(page('Tides', '<p>High water comes twice a day.</p>'));
    // Answers after 1.5 s: a run that outlasts a short --deadline, or that Ctrl-C stops.
    if (path === '/slow') {
      const timer = setTimeout(() => html(page('Slow', '<p>Late, but here.</p>')), 1500);
      res.once('close', () => clearTimeout(timer));
      return;
    }
    if (path === '/held') {
      const answer = () => html(page('Held', '<p>Released.</p>'));
      if (released) return answer();
      held.add(answer);
      res.once('close', () => held.delete(answer));
      return;
    }
    if (path === '/product') {
      const jsonLd = JSON.stringify({
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: 'Brass Lamp',
        offers: { '@type': 'Offer', price: '49.90', priceCurrency: 'EUR' },
      });
      return html(
        `<!doctype html><html><head><title>Brass Lamp</title><script type="application/ld+json">${jsonLd}</script></head><body><h1>Brass Lamp</h1><p>49.90 EUR</p></body></html>`,
      );
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    releaseHeld: () => {
      released = true;
      for (const answer of held) answer();
      held.clear();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
