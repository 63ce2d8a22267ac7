import { getEventListeners } from 'node:events';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../config.js';
import { PageError } from '../errors.js';
import { decodeBody } from './content-type.js';
import { type FixtureServer, startFixtureServer } from './fixture-server.test-support.js';
import { HttpStatusError } from './http-status-error.js';
import { PageFetcher, type PageFetcherConfig } from './page-fetcher.js';

// Every server here listens on 127.0.0.1, port 0, and is closed after the tests.

const HTML = '<!doctype html><html><head><title>Hello</title></head><body><p>Hi there</p></body></html>';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const SITEMAP = '<?xml version="1.0"?><urlset><url><loc>https://example.com/a</loc></url></urlset>';
const timers = new Set<NodeJS.Timeout>();
const later = (ms: number, fn: () => void) => {
  const t = setTimeout(() => {
    timers.delete(t);
    fn();
  }, ms);
  timers.add(t);
};

let site: FixtureServer;

function fetcherConfig(overrides: Partial<PageFetcherConfig> = {}): PageFetcherConfig {
  return defaultConfig({
    allowPrivateNetworks: true, // the fixture is on loopback
    pageTimeoutMs: 2000,
    connectTimeoutMs: 1000,
    maxDownloadBytes: 1000,
    maxRedirects: 3,
    perHostConcurrency: 4,
    perHostDelayMs: 0,
    ...overrides,
  });
}

async function pageError(promise: Promise<unknown>): Promise<PageError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PageError) return error;
    throw error;
  }
  throw new Error('expected a PageError');
}

beforeAll(async () => {
  site = await startFixtureServer({
    '/robots.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /blocked/\n\nSitemap: /sitemap.xml.gz\n');
    },
    '/page.html': (req, res) => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'x-seen-ua': req.headers['user-agent'] ?? '',
      });
      res.end(HTML);
    },
    '/echo-headers': (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.headers));
    },
    '/r1': (_req, res) => {
      res.writeHead(302, { location: '/r2' });
      res.end();
    },
    '/r2': (_req, res, s) => {
      res.writeHead(301, { location: `${s.origin}/r3#frag` });
      res.end();
    },
    '/r3': (_req, res) => {
      res.writeHead(307, { location: 'page.html' });
      res.end();
    },
    '/loop-a': (_req, res) => {
      res.writeHead(302, { location: '/loop-b' });
      res.end();
    },
    '/loop-b': (_req, res) => {
      res.writeHead(302, { location: '/loop-a' });
      res.end();
    },
    '/to-ftp': (_req, res) => {
      res.writeHead(302, { location: 'ftp://127.0.0.1/file' });
      res.end();
    },
    '/to-other-loopback': (_req, res, s) => {
      res.writeHead(302, { location: `http://127.0.0.2:${s.port}/page.html` });
      res.end();
    },
    '/to-blocked': (_req, res) => {
      res.writeHead(302, { location: '/blocked/page' });
      res.end();
    },
    '/blocked/page': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(HTML);
    },
    '/error': (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('boom');
    },
    '/gone': (_req, res) => {
      res.writeHead(410);
      res.end();
    },
    '/slow': (_req, res) => {
      later(5000, () => {
        if (!res.destroyed) res.end('late');
      });
    },
    '/slow-body': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body>start');
      later(5000, () => {
        if (!res.destroyed) res.end('</body></html>');
      });
    },
    '/hang': () => {
      // never answers; the client aborts
    },
    '/big-with-length': (_req, res) => {
      const body = 'x'.repeat(5000);
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(body.length) });
      res.end(body);
    },
    '/big-streamed': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }); // chunked, no Content-Length
      let sent = 0;
      const pump = () => {
        if (res.destroyed || sent >= 200) {
          res.end();
          return;
        }
        sent += 1;
        res.write('y'.repeat(100));
        later(2, pump);
      };
      pump();
    },
    '/image.png': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    },
    '/octet': (_req, res) => {
      res.writeHead(200);
      res.end(PNG); // unlabelled binary
    },
    '/plain.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('just text ✓');
    },
    '/data.json': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/vnd.api+json' });
      res.end('{"a":[1,2]}');
    },
    '/latin1': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' });
      res.end(Buffer.from('<html><body><p>Crème brûlée à Noël</p></body></html>', 'latin1'));
    },
    '/latin1-meta': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        Buffer.from('<html><head><meta charset="iso-8859-1"></head><body>Señor</body></html>', 'latin1'),
      );
    },
    '/gzipped-page': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(gzipSync(HTML));
    },
    '/deflated-page': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'deflate' });
      res.end(deflateSync(HTML));
    },
    '/raw-deflated-page': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'deflate' });
      res.end(deflateRawSync(HTML));
    },
    '/brotli-page': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' });
      res.end(brotliCompressSync(HTML));
    },
    '/gzip-then-br-page': (_req, res) => {
      // Stacked codings, listed in the order applied: gzip first, then br over it.
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip, br' });
      res.end(brotliCompressSync(gzipSync(HTML)));
    },
    '/six-codings-page': (_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/html',
        'content-encoding': 'identity, identity, identity, identity, identity, identity',
      });
      res.end(HTML);
    },
    '/gzip-without-trailer': (_req, res) => {
      // The 8-byte CRC and length trailer missing, as some servers end a gzip body: browsers and curl decode it.
      const packed = gzipSync(HTML);
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(packed.subarray(0, packed.length - 8));
    },
    '/gzip-bomb': (_req, res) => {
      // 200,000 bytes unpacked from a few hundred: the cap applies to what is unpacked.
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(gzipSync(Buffer.alloc(200_000, 'a')));
    },
    '/sitemap.xml.gz': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-gzip' });
      res.end(gzipSync(SITEMAP));
    },
    '/sitemap.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'gzip' });
      res.end(gzipSync(SITEMAP));
    },
    '/gated': (_req, res) => {
      later(40, () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
    },
  });
});

afterAll(async () => {
  for (const t of timers) clearTimeout(t);
  await site.close();
});

describe('PageFetcher against a loopback fixture', () => {
  it('fetches HTML with the configured User-Agent and Accept', async () => {
    const config = fetcherConfig();
    const fetcher = new PageFetcher(config);
    try {
      const page = await fetcher.fetchPage(`${site.origin}/page.html`);
      // Its fields (the body read, so decoded); the hand-over of its bytes is a function.
      expect({ ...page, takeEncodedBody: undefined }).toEqual({
        url: `${site.origin}/page.html`,
        finalUrl: `${site.origin}/page.html`,
        status: 200,
        contentType: 'text/html',
        kind: 'html',
        body: HTML,
      });
      const echo = JSON.parse((await fetcher.fetchPage(`${site.origin}/echo-headers`)).body) as Record<
        string,
        string
      >;
      expect(echo['user-agent']).toBe(config.userAgent);
      expect(echo.accept).toMatch(/^text\/html,application\/xhtml\+xml,.*\*\/\*;q=0\.8$/);
      expect(echo['accept-encoding']).toContain('gzip');
    } finally {
      await fetcher.close();
    }
  });

  it('follows a redirect chain (relative, absolute, with fragment) to the final URL', async () => {
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      const page = await fetcher.fetchPage(`${site.origin}/r1`);
      expect(page.finalUrl).toBe(`${site.origin}/page.html`);
      expect(page.url).toBe(`${site.origin}/r1`);
      expect(page.body).toBe(HTML);
    } finally {
      await fetcher.close();
    }
  });

  it('stops a redirect loop with too_many_redirects', async () => {
    const fetcher = new PageFetcher(fetcherConfig({ maxRedirects: 3 }));
    try {
      const before = (site.hits.get('/loop-a') ?? 0) + (site.hits.get('/loop-b') ?? 0);
      const error = await pageError(fetcher.fetchPage(`${site.origin}/loop-a`));
      expect(error.code).toBe('too_many_redirects');
      const after = (site.hits.get('/loop-a') ?? 0) + (site.hits.get('/loop-b') ?? 0);
      expect(after - before).toBe(4); // the first request and 3 followed redirects
    } finally {
      await fetcher.close();
    }
  });

  it('refuses a redirect to another scheme', async () => {
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      const error = await pageError(fetcher.fetchPage(`${site.origin}/to-ftp`));
      expect(error.code).toBe('unprocessable_url');
      expect(error.message).toContain('scheme');
    } finally {
      await fetcher.close();
    }
  });

  it('answers non-2xx with http_error carrying the status', async () => {
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      const missing = await pageError(fetcher.fetchPage(`${site.origin}/missing`));
      expect(missing).toBeInstanceOf(HttpStatusError);
      expect(missing.code).toBe('http_error');
      expect((missing as HttpStatusError).httpStatus).toBe(404);
      expect(missing.message).toContain('404');
      const failed = await pageError(fetcher.fetchPage(`${site.origin}/error`));
      expect((failed as HttpStatusError).httpStatus).toBe(500);
    } finally {
      await fetcher.close();
    }
  });

  it('times out a page that does not answer, and one whose body stalls', async () => {
    const fetcher = new PageFetcher(fetcherConfig({ pageTimeoutMs: 300 }));
    try {
      const error = await pageError(fetcher.fetchPage(`${site.origin}/slow`));
      expect(error.code).toBe('timeout');
      const stalled = await pageError(fetcher.fetchPage(`${site.origin}/slow-body`));
      expect(stalled.code).toBe('timeout');
    } finally {
      await fetcher.close();
    }
  });

  it('refuses a body over the cap, by Content-Length and while streaming', async () => {
    const fetcher = new PageFetcher(fetcherConfig({ maxDownloadBytes: 1000 }));
    try {
      const declared = await pageError(fetcher.fetchPage(`${site.origin}/big-with-length`));
      expect(declared.code).toBe('too_large');
      expect(declared.message).toContain('Content-Length 5000');
      const streamed = await pageError(fetcher.fetchPage(`${site.origin}/big-streamed`));
      expect(streamed.code).toBe('too_large');
      // The download was cut off: the server saw the client go before it sent all 20,000 bytes.
      await new Promise((r) => setTimeout(r, 50));
      expect(site.abortedPaths).toContain('/big-streamed');
      const unpacked = await pageError(fetcher.fetchPage(`${site.origin}/gzip-bomb`));
      expect(unpacked.code).toBe('too_large');
    } finally {
      await fetcher.close();
    }
  });

  it('refuses images and unlabelled binaries with unsupported_content', async () => {
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      const image = await pageError(fetcher.fetchPage(`${site.origin}/image.png`));
      expect(image.code).toBe('unsupported_content');
      expect(image.message).toContain('image/png');
      const octet = await pageError(fetcher.fetchPage(`${site.origin}/octet`));
      expect(octet.code).toBe('unsupported_content');
    } finally {
      await fetcher.close();
    }
  });

  it('keeps text/plain and JSON as text', async () => {
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      const text = await fetcher.fetchPage(`${site.origin}/plain.txt`);
      expect([text.kind, text.contentType, text.body]).toEqual(['text', 'text/plain', 'just text ✓']);
      const json = await fetcher.fetchPage(`${site.origin}/data.json`);
      expect([json.kind, json.contentType, json.body]).toEqual([
        'json',
        'application/vnd.api+json',
        '{"a":[1,2]}',
      ]);
    } finally {
      await fetcher.close();
    }
  });

  it('decodes Latin-1 from the header or from <meta charset>, and gzip, deflate (zlib or raw) and br content codings', async () => {
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      expect((await fetcher.fetchPage(`${site.origin}/latin1`)).body).toContain('Crème brûlée à Noël');
      expect((await fetcher.fetchPage(`${site.origin}/latin1-meta`)).body).toContain('Señor');
      expect((await fetcher.fetchPage(`${site.origin}/gzipped-page`)).body).toBe(HTML);
      expect((await fetcher.fetchPage(`${site.origin}/deflated-page`)).body).toBe(HTML);
      expect((await fetcher.fetchPage(`${site.origin}/raw-deflated-page`)).body).toBe(HTML);
      expect((await fetcher.fetchPage(`${site.origin}/brotli-page`)).body).toBe(HTML);
    } finally {
      await fetcher.close();
    }
  });

  it('hands a body over undecoded when it was not read, with what decodes it, and then holds it no more', async () => {
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      const page = await fetcher.fetchPage(`${site.origin}/latin1-meta`);
      const encoded = page.takeEncodedBody?.();
      expect(encoded?.headerCharset).toBeNull();
      expect(decodeBody(encoded!.bytes, encoded!.headerCharset, 'html')).toContain('Señor');
      expect(page.takeEncodedBody?.()).toBeNull();
      expect(() => page.body).toThrow(/handed over/);
      const read = await fetcher.fetchPage(`${site.origin}/latin1`);
      expect(read.body).toContain('Crème brûlée à Noël');
      // Once decoded (as an extraction reads it), the text is the page's: no bytes to hand over.
      expect(read.takeEncodedBody?.()).toBeNull();
      expect(read.body).toContain('Crème brûlée à Noël');
      const header = (await fetcher.fetchPage(`${site.origin}/latin1`)).takeEncodedBody?.();
      expect(header?.headerCharset).toBe('iso-8859-1');
    } finally {
      await fetcher.close();
    }
  });

  it('undoes stacked codings, refuses more than five, and decodes a gzip body that lacks its trailer', async () => {
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      expect((await fetcher.fetchPage(`${site.origin}/gzip-then-br-page`)).body).toBe(HTML);
      const tooMany = await pageError(fetcher.fetchPage(`${site.origin}/six-codings-page`));
      expect(tooMany.code).toBe('fetch_failed');
      expect(tooMany.message).toContain('too many content codings');
      expect((await fetcher.fetchPage(`${site.origin}/gzip-without-trailer`)).body).toBe(HTML);
    } finally {
      await fetcher.close();
    }
  });

  it('honours robots.txt, on the first URL and on redirect hops, fetching it once', async () => {
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      const robotsBefore = site.hits.get('/robots.txt') ?? 0;
      const pageBefore = site.hits.get('/blocked/page') ?? 0;
      const direct = await pageError(fetcher.fetchPage(`${site.origin}/blocked/page`));
      expect(direct.code).toBe('robots_disallowed');
      const viaRedirect = await pageError(fetcher.fetchPage(`${site.origin}/to-blocked`));
      expect(viaRedirect.code).toBe('robots_disallowed');
      expect(site.hits.get('/blocked/page') ?? 0).toBe(pageBefore);
      await fetcher.fetchPage(`${site.origin}/page.html`);
      expect((site.hits.get('/robots.txt') ?? 0) - robotsBefore).toBe(1);
      // respectRobots: false fetches it anyway.
      const page = await fetcher.fetchPage(`${site.origin}/blocked/page`, { respectRobots: false });
      expect(page.status).toBe(200);
      const robots = await fetcher.robotsFor(site.origin);
      expect(robots.sitemaps).toEqual([`${site.origin}/sitemap.xml.gz`]);
      expect(robots.crawlDelayMs).toBeNull();
      expect(robots.isAllowed(`${site.origin}/blocked/x`)).toBe(false);
    } finally {
      await fetcher.close();
    }
  });

  it('never has more than perHostConcurrency requests in flight to one host (counted by the server)', async () => {
    const fetcher = new PageFetcher(fetcherConfig({ perHostConcurrency: 2 }));
    try {
      await fetcher.robotsFor(site.origin); // load robots first so only /gated requests overlap
      site.peakActive = site.active;
      const pages = await Promise.all(
        Array.from({ length: 8 }, (_, i) => fetcher.fetchPage(`${site.origin}/gated?i=${i}`)),
      );
      expect(pages.every((p) => p.body === 'ok')).toBe(true);
      expect(site.peakActive).toBe(2);
    } finally {
      await fetcher.close();
    }
  });

  it('calls onStart when the request goes out, not while it waits for the host to have a free slot', async () => {
    const fetcher = new PageFetcher(fetcherConfig({ perHostConcurrency: 1 }));
    try {
      await fetcher.robotsFor(site.origin);
      const startedAt: number[] = [];
      await Promise.all(
        [0, 1].map((i) =>
          fetcher.fetchPage(`${site.origin}/gated?turn=${i}`, {
            onStart: () => startedAt.push(performance.now()),
          }),
        ),
      );
      // One slot to the host and /gated answers after 40 ms: the second request starts only after that.
      expect(startedAt).toHaveLength(2);
      expect(startedAt[1]! - startedAt[0]!).toBeGreaterThanOrEqual(35);
    } finally {
      await fetcher.close();
    }
  });

  it('aborts a request in flight promptly with cancelled', async () => {
    const fetcher = new PageFetcher(fetcherConfig({ pageTimeoutMs: 10_000 }));
    try {
      await fetcher.robotsFor(site.origin);
      const controller = new AbortController();
      const hangBefore = site.hits.get('/hang') ?? 0;
      const pending = fetcher.fetchPage(`${site.origin}/hang`, { signal: controller.signal });
      while ((site.hits.get('/hang') ?? 0) === hangBefore) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      const error = await pageError(pending);
      expect(error.code).toBe('cancelled');
      await new Promise((r) => setTimeout(r, 50));
      expect(site.abortedPaths).toContain('/hang');
      // An already-aborted signal never reaches the server.
      const hits = site.hits.get('/page.html') ?? 0;
      const early = await pageError(
        fetcher.fetchPage(`${site.origin}/page.html`, { signal: AbortSignal.abort() }),
      );
      expect(early.code).toBe('cancelled');
      expect(site.hits.get('/page.html') ?? 0).toBe(hits);
    } finally {
      await fetcher.close();
    }
  });

  it("leaves no listener on the caller's signal once a fetch has ended, and stops on close", async () => {
    const fetcher = new PageFetcher(fetcherConfig({ pageTimeoutMs: 10_000 }));
    try {
      const controller = new AbortController();
      // A long-lived signal (a run's, the server's) must not gather one listener a page.
      for (let i = 0; i < 3; i += 1)
        await fetcher.fetchPage(`${site.origin}/page.html`, { signal: controller.signal });
      await pageError(fetcher.fetchPage(`${site.origin}/missing`, { signal: controller.signal }));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      const hangBefore = site.hits.get('/hang') ?? 0;
      const pending = fetcher.fetchPage(`${site.origin}/hang`, { signal: controller.signal });
      while ((site.hits.get('/hang') ?? 0) === hangBefore) await new Promise((r) => setTimeout(r, 5));
      expect(getEventListeners(controller.signal, 'abort').length).toBeGreaterThan(0);
      void fetcher.close();
      expect((await pageError(pending)).code).toBe('cancelled');
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    } finally {
      await fetcher.close();
    }
  });

  it('fetchText reads gzip sitemaps, and answers null on 404 and 410', async () => {
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      expect(await fetcher.fetchText(`${site.origin}/sitemap.xml.gz`)).toBe(SITEMAP);
      expect(await fetcher.fetchText(`${site.origin}/sitemap.xml`)).toBe(SITEMAP);
      expect(await fetcher.fetchText(`${site.origin}/nothing-here.xml`)).toBeNull();
      expect(await fetcher.fetchText(`${site.origin}/gone`)).toBeNull();
      const error = await pageError(fetcher.fetchText(`${site.origin}/error`));
      expect(error.code).toBe('http_error');
      expect(await fetcher.fetchText(`${site.origin}/robots.txt`)).toContain('Disallow: /blocked/');
    } finally {
      await fetcher.close();
    }
  });

  it('fails with fetch_failed when nothing listens', async () => {
    const closed = await startFixtureServer({});
    const origin = closed.origin;
    await closed.close();
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      const error = await pageError(fetcher.fetchPage(`${origin}/`, { respectRobots: false }));
      expect(error.code).toBe('fetch_failed');
      expect(error.message).toContain('ECONNREFUSED');
    } finally {
      await fetcher.close();
    }
  });
});

describe('SSRF guard at connect time (loopback only)', () => {
  it('refuses 127.0.0.1, [::1] and localhost when private networks are not allowed, sending nothing', async () => {
    const fetcher = new PageFetcher(fetcherConfig({ allowPrivateNetworks: false }));
    const totalHits = () => [...site.hits.values()].reduce((a, b) => a + b, 0);
    try {
      const before = totalHits();
      for (const url of [
        `${site.origin}/page.html`,
        `http://localhost:${site.port}/page.html`,
        `http://[::1]:${site.port}/page.html`,
      ]) {
        const error = await pageError(fetcher.fetchPage(url));
        expect(error.code).toBe('unprocessable_url');
        expect(error.message).toMatch(/loopback|local/);
      }
      expect(totalHits()).toBe(before);
    } finally {
      await fetcher.close();
    }
  });

  it('refuses in the connector itself, for literal IPs and resolved names', async () => {
    // Private networks "allowed" so the pre-connect hop check passes; the
    // connect-time policy refuses every address.
    const fetcher = new PageFetcher(fetcherConfig(), { addressPolicy: () => false });
    const totalHits = () => [...site.hits.values()].reduce((a, b) => a + b, 0);
    try {
      const before = totalHits();
      for (const url of [`${site.origin}/page.html`, `http://localhost:${site.port}/page.html`]) {
        const error = await pageError(fetcher.fetchPage(url, { respectRobots: false }));
        expect(error.code).toBe('unprocessable_url');
      }
      expect(totalHits()).toBe(before);
    } finally {
      await fetcher.close();
    }
  });

  it('checks every redirect hop at connect time', async () => {
    // Only 127.0.0.1 may be reached: the redirect to 127.0.0.2 is refused before connecting.
    const fetcher = new PageFetcher(fetcherConfig(), { addressPolicy: (address) => address === '127.0.0.1' });
    try {
      const pageHits = site.hits.get('/page.html') ?? 0;
      const error = await pageError(
        fetcher.fetchPage(`${site.origin}/to-other-loopback`, { respectRobots: false }),
      );
      expect(error.code).toBe('unprocessable_url');
      expect(error.message).toContain('127.0.0.2');
      expect(site.hits.get('/page.html') ?? 0).toBe(pageHits);
    } finally {
      await fetcher.close();
    }
  });
});

describe('robots.txt failures and crawl-delay', () => {
  it('treats a 404 or 500 robots.txt as allow-all', async () => {
    const missing = await startFixtureServer({
      '/page': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(HTML);
      },
    });
    const broken = await startFixtureServer({
      '/robots.txt': (_req, res) => {
        res.writeHead(503);
        res.end();
      },
      '/page': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(HTML);
      },
    });
    const fetcher = new PageFetcher(fetcherConfig());
    try {
      expect((await fetcher.fetchPage(`${missing.origin}/page`)).status).toBe(200);
      expect((await fetcher.fetchPage(`${broken.origin}/page`)).status).toBe(200);
      expect(missing.hits.get('/robots.txt')).toBe(1);
      expect(broken.hits.get('/robots.txt')).toBe(1);
      expect((await fetcher.robotsFor(broken.origin)).sitemaps).toEqual([]);
    } finally {
      await fetcher.close();
      await missing.close();
      await broken.close();
    }
  });

  it('spaces request starts by the robots crawl-delay', async () => {
    const slow = await startFixtureServer({
      '/robots.txt': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('User-agent: webdata\nCrawl-delay: 0.15\n');
      },
      '/p': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('p');
      },
    });
    const fetcher = new PageFetcher(fetcherConfig({ perHostConcurrency: 4 }));
    try {
      expect((await fetcher.robotsFor(slow.origin)).crawlDelayMs).toBe(150);
      // The starts are taken where the fetcher sends each request (onStart), not
      // where the server sees it arrive: on a loaded machine one request's
      // transit can be longer than the next one's, so arrivals may come closer
      // together than the starts the crawl-delay spaces.
      const starts: number[] = [];
      await Promise.all(
        [1, 2, 3].map((i) =>
          fetcher.fetchPage(`${slow.origin}/p?${i}`, {
            onStart: () => starts.push(performance.now()),
          }),
        ),
      );
      expect(slow.arrivals.get('/p')).toHaveLength(3);
      expect(starts).toHaveLength(3);
      // A timer may fire up to a millisecond early (Node rounds it).
      expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(149);
      expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(149);
    } finally {
      await fetcher.close();
      await slow.close();
    }
  });

  it('tells a page waiting for its crawl-delay turn, and when it comes; not a wait for a concurrent slot', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const site = (robots: string) =>
      startFixtureServer({
        '/robots.txt': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(robots);
        },
        '/hold': async (_req, res) => {
          await held;
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('held');
        },
        '/p': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('p');
        },
      });
    const polite = await site('User-agent: *\nCrawl-delay: 0.2\n');
    const busy = await site('User-agent: *\nAllow: /\n');
    const fetcher = new PageFetcher(fetcherConfig({ perHostConcurrency: 1 }));
    try {
      const told: string[] = [];
      const tell = (name: string) => (waiting: boolean) => told.push(`${name} ${waiting}`);
      // A page of the polite host, then the next: it waits for its turn, and says so.
      await fetcher.fetchPage(`${polite.origin}/p?a`);
      await fetcher.fetchPage(`${polite.origin}/p?b`, { onHostWait: tell('b') });
      expect(told).toEqual(['b true', 'b false']);
      // The busy host's only slot is taken by a held page: the next one waits for it, unannounced.
      told.length = 0;
      const first = fetcher.fetchPage(`${busy.origin}/hold`, { onHostWait: tell('hold') });
      await vi.waitFor(() => expect(busy.arrivals.get('/hold')).toHaveLength(1));
      const second = fetcher.fetchPage(`${busy.origin}/p`, { onHostWait: tell('next') });
      await new Promise((r) => setTimeout(r, 50));
      release();
      await Promise.all([first, second]);
      expect(told).toEqual([]);
    } finally {
      release();
      await fetcher.close();
      await polite.close();
      await busy.close();
    }
  });
});
