import { RUN_PARAMS } from '@webdata/contract';
import { describe, expect, it } from 'vitest';
import { type CrawlFetcher, type CrawlingRun, discoverLinks } from './discover-links.js';

/** Runs below read no robots.txt and no sitemap: a fetcher that is asked anything fails the test. */
const noFetching: CrawlFetcher = {
  fetchText: () => Promise.reject(new Error('fetchText called')),
  robotsFor: () => Promise.reject(new Error('robotsFor called')),
};
const signal = new AbortController().signal;
const START = 'https://docs.example/guide/';
const links = [
  'https://docs.example/guide/install',
  'https://www.docs.example/guide/usage',
  'https://other.example/guide/',
  'https://docs.example/private/keys',
];

function deepCrawl(params: Record<string, unknown>): CrawlingRun {
  return {
    type: 'deep-crawl',
    params: RUN_PARAMS['deep-crawl'].parse({
      url: START,
      use_sitemap: false,
      respect_robots: false,
      ...params,
    }),
  };
}

const page = (depth: number) => ({ url: START, finalUrl: START, depth, links });

describe('discoverLinks', () => {
  it('follows same-site links one level deeper, keyed by their normal form, the page as parent', async () => {
    const found = await discoverLinks(noFetching, deepCrawl({}), page(0), signal);
    expect(found).toEqual([
      { url: links[0], key: 'https://docs.example/guide/install', depth: 1, parentUrl: START },
      { url: links[1], key: 'https://www.docs.example/guide/usage', depth: 1, parentUrl: START },
      { url: links[3], key: 'https://docs.example/private/keys', depth: 1, parentUrl: START },
    ]);
  });

  it('leaves the site only when the run allows it, and applies the path globs', async () => {
    const run = deepCrawl({ same_site: false, exclude_paths: ['/private/**'] });
    const found = await discoverLinks(noFetching, run, page(0), signal);
    expect(found.map((link) => link.url)).toEqual([links[0], links[1], links[2]]);
  });

  it('stops at max_depth', async () => {
    const run = deepCrawl({ max_depth: 2 });
    expect(await discoverLinks(noFetching, run, page(1), signal)).toHaveLength(3);
    expect(await discoverLinks(noFetching, run, page(2), signal)).toEqual([]);
  });

  it('follows nothing from a crawl of known URLs, and links from a crawl with a start URL', async () => {
    const known: CrawlingRun = {
      type: 'crawl',
      params: RUN_PARAMS.crawl.parse({ respect_robots: false }),
    };
    expect(await discoverLinks(noFetching, known, page(0), signal)).toEqual([]);
    const started: CrawlingRun = {
      type: 'crawl',
      params: RUN_PARAMS.crawl.parse({ url: START, respect_robots: false }),
    };
    expect(await discoverLinks(noFetching, started, page(0), signal)).toHaveLength(3);
  });

  it('lets the event loop turn while it checks a page of many links', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `https://docs.example/guide/${i}`);
    let checked = 0;
    const counting: CrawlFetcher = {
      ...noFetching,
      robotsFor: async () => ({
        sitemaps: [],
        crawlDelayMs: null,
        isAllowed: () => {
          checked += 1;
          return true;
        },
      }),
    };
    let checkedAtTurn = -1;
    setImmediate(() => {
      checkedAtTurn = checked;
    });
    const found = await discoverLinks(
      counting,
      deepCrawl({ respect_robots: true }),
      { url: START, finalUrl: START, depth: 0, links: many },
      signal,
    );
    expect(found).toHaveLength(5000);
    // A request waiting for a turn got it after a thousand links, not after all 5,000.
    expect(checkedAtTurn).toBeGreaterThan(0);
    expect(checkedAtTurn).toBeLessThanOrEqual(1000);
  });

  it('lets the event loop turn while it reads a large sitemap, before the first link is checked', async () => {
    // 20,000 entries, about 1 MB: read at once, a turn came only after 1,000 links were checked.
    const entries = Array.from(
      { length: 20_000 },
      (_, i) => `<url><loc>https://docs.example/p/${i}</loc></url>`,
    );
    let checked = 0;
    let checkedAtTurn = -1;
    const withSitemap: CrawlFetcher = {
      fetchText: async () => {
        setImmediate(() => {
          checkedAtTurn = checked;
        });
        return `<urlset>${entries.join('')}</urlset>`;
      },
      robotsFor: async () => ({
        sitemaps: ['https://docs.example/sitemap.xml'],
        crawlDelayMs: null,
        isAllowed: () => {
          checked += 1;
          return true;
        },
      }),
    };
    const found = await discoverLinks(
      withSitemap,
      deepCrawl({ use_sitemap: true, respect_robots: true, limit: 10_000 }),
      { url: START, finalUrl: START, depth: 0, links: [] },
      signal,
    );
    expect(found.length).toBeGreaterThan(0);
    expect(checkedAtTurn).toBe(0);
  });

  it("reads a site's sitemaps only until the run has its limit of links, and survives a million", {
    timeout: 120_000,
  }, async () => {
    // 20 sitemaps of 50,000 entries (the sitemaps.org most): before, all were read, a million URLs held at
    // once (the built server's RSS 500 MB) and then spread into one push, which overflowed the stack: the
    // start page failed as an internal error.
    const files: string[] = [];
    const withSitemaps: CrawlFetcher = {
      fetchText: async (url) => {
        files.push(url);
        const n = /sitemap-(\d+)/.exec(url)![1];
        const entries = Array.from(
          { length: 50_000 },
          (_, i) => `<url><loc>https://docs.example/${n}/${i}</loc></url>`,
        );
        return `<urlset>${entries.join('')}</urlset>`;
      },
      robotsFor: async () => ({
        sitemaps: Array.from({ length: 20 }, (_, i) => `https://docs.example/sitemap-${i}.xml`),
        crawlDelayMs: null,
        isAllowed: () => true,
      }),
    };
    const run = (limit: number) => deepCrawl({ use_sitemap: true, respect_robots: true, limit });
    const start = { url: START, finalUrl: START, depth: 0, links: [] };
    const few = await discoverLinks(withSitemaps, run(100), start, signal);
    expect(files).toHaveLength(1);
    expect(few.length).toBeGreaterThanOrEqual(100);
    expect(few.length).toBeLessThanOrEqual(50_000);
    files.length = 0;
    const all = await discoverLinks(withSitemaps, run(1_000_000), start, signal);
    expect(files).toHaveLength(20);
    expect(all).toHaveLength(1_000_000);
  });
});
