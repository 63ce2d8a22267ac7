/**
 * Deep crawl end to end through the HTTP API: a generated site of several
 * hundred pages with cycles, duplicate URL forms, a sitemap index with pages
 * no page links to, an excluded section and a robots.txt `Disallow:`. The
 * expected crawl is computed here, breadth-first over the site's own link
 * graph, and compared with the server's results and the site's request log.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Result, ResultPage, Run } from '@webdata/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeepCrawlSite, startDeepCrawlSite } from '../bench/deep-crawl-site.js';
import { type ApiCall, waitForRun } from './api-client.js';
import { FixtureSite, page } from './fixture-site.js';
import { startTestServer, type TestServer } from './test-server.js';

const PAGES = 400;

let site: FixtureSite;
let spec: DeepCrawlSite;
let other: FixtureSite;
let server: TestServer;
let call: ApiCall;

/** The page a URL means on these sites: scheme and host as the URL parser prints them, no fragment, `index.html`, trailing slash or `utm_*`. */
function canon(url: string): string {
  const u = new URL(url);
  let path = u.pathname.replace(/\/index\.html$/, '/');
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const query = [...u.searchParams].filter(([name]) => !name.startsWith('utm_'));
  const search = query.length === 0 ? '' : `?${new URLSearchParams(query).toString()}`;
  return `${u.protocol}//${u.host}${path}${search}`;
}

/** Every page of both sites by canonical URL, with its links resolved and canonicalised. */
function linkGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const p of spec.pages.values()) {
    const from = `${spec.origin}${p.path}`;
    graph.set(
      canon(from),
      p.hrefs.map((href) => canon(new URL(href, from).href)),
    );
  }
  for (const [path, links] of Object.entries(OTHER_LINKS)) {
    const from = `${other.url}${path}`;
    graph.set(
      canon(from),
      links.map((href) => canon(new URL(href, from).href)),
    );
  }
  return graph;
}

/** The other site, for `same_site: false`: its home page links on to two more pages. */
const OTHER_LINKS: Record<string, string[]> = { '/': ['/b1', '/b2'], '/b1': ['/b2'], '/b2': ['/'] };

interface Rules {
  maxDepth: number;
  useSitemap: boolean;
  sameSite: boolean;
}

interface Expected {
  depth: number;
  /** URLs a correct crawler may name as `parent_url`: pages one level up linking here, or sitemaps. */
  parents: Set<string>;
}

/**
 * The crawl a correct server makes, computed from the site's graph: breadth
 * first from the home page; the start page's links, then its sitemaps'
 * pages, at depth 1; `/private/**` excluded, robots' `Disallow: /secret`
 * obeyed, other sites followed only without `same_site`.
 */
function expectedCrawl(rules: Rules): Map<string, Expected> {
  const graph = linkGraph();
  const start = canon(`${spec.origin}/`);
  const home = new URL(spec.origin).host;
  const allowed = (url: string) => {
    const u = new URL(url);
    if (rules.sameSite && u.host !== home) return false;
    if (u.pathname === '/private' || u.pathname.startsWith('/private/')) return false;
    return !(u.host === home && spec.disallowed.some((prefix) => u.pathname.startsWith(prefix)));
  };
  const found = new Map<string, Expected>([[start, { depth: 0, parents: new Set() }]]);
  const queue = [start];
  while (queue.length > 0) {
    const url = queue.shift()!;
    const depth = found.get(url)!.depth;
    if (depth >= rules.maxDepth) continue;
    const candidates = (graph.get(url) ?? []).map((target) => ({ target, parent: url }));
    if (url === start && rules.useSitemap) candidates.push(...sitemapEntries());
    for (const { target, parent } of candidates) {
      if (!allowed(target)) continue;
      const known = found.get(target);
      if (known === undefined) {
        found.set(target, { depth: depth + 1, parents: new Set([parent]) });
        queue.push(target);
      } else if (known.depth === depth + 1) {
        known.parents.add(parent);
      }
    }
  }
  return found;
}

/** The pages listed by the sitemaps robots.txt names, following the index, each with its sitemap's URL. */
function sitemapEntries(): { target: string; parent: string }[] {
  const entries: { target: string; parent: string }[] = [];
  const queue = [...spec.robotsSitemaps];
  while (queue.length > 0) {
    const sitemapUrl = queue.shift()!;
    const sitemap = spec.sitemaps.get(new URL(sitemapUrl).pathname);
    if (!sitemap) continue;
    queue.push(...sitemap.sitemaps);
    for (const url of sitemap.urls) entries.push({ target: canon(url), parent: sitemapUrl });
  }
  return entries;
}

async function allResults(runId: string): Promise<Result[]> {
  const out: Result[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const { status, body } = await call('GET', `/api/v1/runs/${runId}/results?limit=200${query}`);
    expect(status).toBe(200);
    const parsed = ResultPage.parse(body);
    out.push(...parsed.data);
    cursor = parsed.next_cursor;
  } while (cursor);
  return out;
}

/** Results by canonical URL; fails on two results for one page. */
function byPage(results: Result[]): Map<string, Result> {
  const map = new Map<string, Result>();
  for (const result of results) {
    const key = canon(result.url);
    expect(map.has(key), `two results for ${key}`).toBe(false);
    map.set(key, result);
  }
  return map;
}

/** Checks results against the expected crawl: same pages, BFS depth, a parent that links here. */
function expectMatchesCrawl(results: Result[], expected: Map<string, Expected>) {
  const got = byPage(results);
  expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [url, result] of got) {
    const want = expected.get(url)!;
    expect(result.status, url).toBe('succeeded');
    expect(result.depth, url).toBe(want.depth);
    if (want.depth === 0) expect(result.parent_url, url).toBeNull();
    else expect([...want.parents], url).toContain(canon(result.parent_url!));
  }
}

/** Page requests made since `from` on a site, by canonical page (robots.txt and sitemaps left out). */
function pageFetches(fixture: FixtureSite, from: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const path of fixture.requests.slice(from)) {
    if (path === '/robots.txt' || /^\/sitemap[\w-]*\.xml$/.test(path)) continue;
    const key = canon(`${fixture.url}${path}`);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function isSitemapRequest(path: string): boolean {
  return /^\/sitemap[\w-]*\.xml$/.test(path);
}

beforeAll(async () => {
  other = new FixtureSite(
    Object.fromEntries(
      Object.entries(OTHER_LINKS).map(([path, links]) => [path, { body: page(`Other ${path}`, links) }]),
    ),
  );
  await other.start();
  ({ site, spec } = await startDeepCrawlSite({ pages: PAGES, traps: true, externalUrl: `${other.url}/` }));
  server = await startTestServer({ workerConcurrency: 8, perHostConcurrency: 8 });
  call = server.call;
});

afterAll(async () => {
  await server?.close();
  await site?.stop();
  await other?.stop();
});

describe('the generated site', () => {
  it('has several hundred pages, depths up to 5, and links that keep BFS depth independent of fetch order', () => {
    const expected = expectedCrawl({ maxDepth: 100, useSitemap: true, sameSite: true });
    expect(expected.size).toBeGreaterThan(PAGES);
    expect(Math.max(...[...expected.values()].map((e) => e.depth))).toBe(5);
    // A page at depth d links only to depth d+1, back to depth 0 or 1, or to itself; otherwise a
    // page fetched early could legitimately reach another at a greater depth than BFS says.
    for (const [url, links] of linkGraph()) {
      const from = expected.get(url);
      if (!from) continue;
      for (const target of links) {
        const to = expected.get(target);
        if (!to || target === url) continue;
        expect(to.depth <= 1 || to.depth === from.depth + 1, `${url} -> ${target}`).toBe(true);
      }
    }
  });
});

describe('POST /api/v1/deep-crawl', () => {
  // A 400-page crawl: 11 s in CI, 27 s on the shared machine under load, so more room than the default 30 s.
  it('crawls every reachable allowed page once, at its BFS depth, with a parent that links to it', {
    timeout: 120_000,
  }, async () => {
    const fromRequest = site.requests.length;
    const created = await call('POST', '/api/v1/deep-crawl', {
      url: `${site.url}/`,
      max_depth: 20,
      limit: 2000,
      exclude_paths: [spec.excludeGlob],
      collection: 'deep',
    });
    expect(created.status).toBe(202);
    expect(Run.parse(created.body).type).toBe('deep-crawl');

    // Sample the run's total while it runs: the frontier grows as pages are crawled.
    const totals: number[] = [];
    let run = created.body;
    while (!['completed', 'incomplete', 'failed', 'cancelled'].includes(run.status)) {
      run = (await call('GET', `/api/v1/runs/${run.id}`)).body;
      totals.push(run.stats.total);
      await sleep(10);
    }
    expect(run.status).toBe('completed');

    const expected = expectedCrawl({ maxDepth: 100, useSitemap: true, sameSite: true });
    expect(run.stats).toMatchObject({ total: expected.size, succeeded: expected.size, failed: 0 });
    for (let i = 1; i < totals.length; i += 1) expect(totals[i]!).toBeGreaterThanOrEqual(totals[i - 1]!);
    expect(new Set(totals).size).toBeGreaterThanOrEqual(3);
    expect(totals[0]!).toBeLessThan(expected.size);

    const results = await allResults(run.id);
    expectMatchesCrawl(results, expected);
    const got = byPage(results);
    // Sitemap-only pages come from the sitemap that lists them.
    for (let i = 0; i < 5; i += 1) {
      expect(got.get(`${site.url}/orphans/p${i}`)).toMatchObject({
        depth: 1,
        parent_url: `${site.url}/sitemap-orphans.xml`,
      });
      expect(got.get(`${site.url}/orphans/p${i}/child`)?.depth).toBe(2);
    }

    // The site saw each page exactly once and nothing excluded, disallowed or off-site.
    const fetches = pageFetches(site, fromRequest);
    expect([...fetches.keys()].sort()).toEqual([...expected.keys()].sort());
    expect([...fetches].filter(([, n]) => n !== 1)).toEqual([]);
    const requested = site.requests.slice(fromRequest);
    expect(requested.filter((path) => /^\/(private|secret|hidden)/.test(path))).toEqual([]);
    expect(requested.filter(isSitemapRequest).sort()).toEqual([
      '/sitemap-index.xml',
      '/sitemap-orphans.xml',
      '/sitemap-pages.xml',
    ]);
    expect(other.requests).toEqual([]);
  });

  it('stops at max_depth', async () => {
    const created = await call('POST', '/api/v1/deep-crawl', {
      url: `${site.url}/`,
      max_depth: 2,
      limit: 2000,
      exclude_paths: [spec.excludeGlob],
    });
    const run = await waitForRun(call, created.body.id, 30_000);
    expect(run.status).toBe('completed');
    const expected = expectedCrawl({ maxDepth: 2, useSitemap: true, sameSite: true });
    expect(run.stats.total).toBe(expected.size);
    const results = await allResults(run.id);
    expectMatchesCrawl(results, expected);
    expect(Math.max(...results.map((r) => r.depth))).toBe(2);
  });

  it('creates exactly `limit` items and results', async () => {
    const created = await call('POST', '/api/v1/deep-crawl', {
      url: `${site.url}/`,
      max_depth: 20,
      limit: 25,
      exclude_paths: [spec.excludeGlob],
    });
    const run = await waitForRun(call, created.body.id, 30_000);
    expect(run.status).toBe('completed');
    expect(run.stats).toMatchObject({ total: 25, succeeded: 25 });
    const results = await allResults(run.id);
    expect(byPage(results).size).toBe(25);
    const reachable = expectedCrawl({ maxDepth: 100, useSitemap: true, sameSite: true });
    for (const result of results) expect(reachable.has(canon(result.url)), result.url).toBe(true);
  });

  it('does not read the sitemap with use_sitemap: false', async () => {
    const fromRequest = site.requests.length;
    const created = await call('POST', '/api/v1/deep-crawl', {
      url: `${site.url}/`,
      max_depth: 1,
      use_sitemap: false,
      exclude_paths: [spec.excludeGlob],
    });
    const run = await waitForRun(call, created.body.id, 30_000);
    expect(run.status).toBe('completed');
    const expected = expectedCrawl({ maxDepth: 1, useSitemap: false, sameSite: true });
    expect([...expected.keys()].some((url) => url.includes('/orphans/'))).toBe(false);
    expectMatchesCrawl(await allResults(run.id), expected);
    expect(site.requests.slice(fromRequest).filter(isSitemapRequest)).toEqual([]);
  });

  it('follows links to another site with same_site: false', async () => {
    const fromOther = other.requests.length;
    const created = await call('POST', '/api/v1/deep-crawl', {
      url: `${site.url}/`,
      max_depth: 2,
      use_sitemap: false,
      same_site: false,
      exclude_paths: [spec.excludeGlob],
    });
    const run = await waitForRun(call, created.body.id, 30_000);
    expect(run.status).toBe('completed');
    const expected = expectedCrawl({ maxDepth: 2, useSitemap: false, sameSite: false });
    expect(expected.get(canon(`${other.url}/b1`))?.depth).toBe(2);
    expectMatchesCrawl(await allResults(run.id), expected);
    const otherPages = other.requests.slice(fromOther).filter((path) => path !== '/robots.txt');
    expect(otherPages.sort()).toEqual(['/', '/b1', '/b2']);
  });
});

describe('POST /api/v1/runs with type deep-crawl', () => {
  it('runs the same deep crawl', async () => {
    const created = await call('POST', '/api/v1/runs', {
      type: 'deep-crawl',
      url: `${site.url}/`,
      max_depth: 1,
      exclude_paths: [spec.excludeGlob],
    });
    expect(created.status).toBe(202);
    expect(Run.parse(created.body).type).toBe('deep-crawl');
    const run = await waitForRun(call, created.body.id, 30_000);
    expect(run.status).toBe('completed');
    const expected = expectedCrawl({ maxDepth: 1, useSitemap: true, sameSite: true });
    expect([...expected.keys()].filter((url) => url.includes('/orphans/'))).toHaveLength(5);
    expectMatchesCrawl(await allResults(run.id), expected);
  });
});
