import fc from 'fast-check';
import robotsParser from 'robots-parser';
import { describe, expect, it } from 'vitest';
import { MAX_WILDCARD_RULES, parseRobots, RobotsCache, robotsAgentToken } from './robots.js';
import type { RobotsInfo } from './types.js';

const UA = 'webdata/0.1 (+https://example.org; self-hosted)';
const ROBOTS = `
User-agent: *
Disallow: /private/
Crawl-delay: 2

User-agent: WebData
Disallow: /no-webdata/
Allow: /no-webdata/except
Crawl-delay: 0.5

Sitemap: https://example.com/sitemap.xml
Sitemap: /relative-sitemap.xml.gz
Sitemap: https://example.com/sitemap.xml
`;

describe('robotsAgentToken', () => {
  it('takes the product token', () => {
    expect(robotsAgentToken(UA)).toBe('webdata');
    expect(robotsAgentToken('MyBot')).toBe('mybot');
    expect(robotsAgentToken('')).toBe('*');
  });
});

describe('parseRobots', () => {
  const rules = parseRobots('https://example.com/robots.txt', ROBOTS, UA);

  it("applies the agent's own group", () => {
    expect(rules.isAllowed('https://example.com/no-webdata/page')).toBe(false);
    expect(rules.isAllowed('https://example.com/no-webdata/except')).toBe(true);
    // The * group does not apply when the agent has its own group.
    expect(rules.isAllowed('https://example.com/private/x')).toBe(true);
    expect(rules.crawlDelayMs).toBe(500);
  });

  it('falls back to the * group for other agents', () => {
    const other = parseRobots('https://example.com/robots.txt', ROBOTS, 'OtherBot/2');
    expect(other.isAllowed('https://example.com/private/x')).toBe(false);
    expect(other.isAllowed('https://example.com/no-webdata/page')).toBe(true);
    expect(other.crawlDelayMs).toBe(2000);
  });

  it('lists sitemaps, absolute and deduplicated', () => {
    expect(rules.sitemaps).toEqual([
      'https://example.com/sitemap.xml',
      'https://example.com/relative-sitemap.xml.gz',
    ]);
  });

  it('treats an empty file as allow-all with no delay', () => {
    const empty = parseRobots('https://example.com/robots.txt', '', UA);
    expect(empty.isAllowed('https://example.com/anything')).toBe(true);
    expect(empty.crawlDelayMs).toBeNull();
  });
});

describe('parseRobots against robots-parser, which it replaced', () => {
  it('answers as robots-parser did for the same file and URL', () => {
    const line = fc.oneof(
      fc.constantFrom(
        'User-agent: *',
        'User-agent: webdata',
        'User-agent: WebData/2.0',
        'User-agent: other',
        '',
      ),
      fc
        .tuple(
          fc.constantFrom('Allow', 'Disallow', 'disallow', 'Crawl-delay'),
          fc.array(fc.constantFrom('/', 'a', 'b', '*', '$', '%2f', 'é', '?', '='), { maxLength: 5 }),
        )
        .map(([field, pieces]) => `${field}: ${pieces.join('')}`),
    );
    const file = fc.array(line, { maxLength: 12 }).map((lines) => lines.join('\n'));
    const path = fc
      .array(fc.constantFrom('/', 'a', 'b', '$', '%2F', 'é', '?', '=', '*'), { maxLength: 6 })
      .map((pieces) => `https://x.test/${pieces.join('')}`);
    fc.assert(
      fc.property(file, fc.array(path, { minLength: 1, maxLength: 4 }), (text, urls) => {
        const ours = parseRobots('https://x.test/robots.txt', text, UA);
        const theirs = robotsParser('https://x.test/robots.txt', text);
        for (const url of urls) expect(ours.isAllowed(url)).toBe(theirs.isAllowed(url, 'webdata') !== false);
        const delay = theirs.getCrawlDelay('webdata');
        expect(ours.crawlDelayMs).toBe(
          typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 ? Math.round(delay * 1000) : null,
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('checks a URL against a hostile 512 KiB file in milliseconds, not seconds', () => {
    // robots-parser took 4.0 s for one check against the first file and 112 ms against the second.
    const wildcard = `User-agent: *\n${`Disallow: /${'*a'.repeat(2000)}b\n`.repeat(125)}`;
    const many = `User-agent: *\n${Array.from({ length: 40_000 }, (_, i) => `Disallow: /*a${i}\n`).join('')}`;
    const url = `https://x.test/${'a'.repeat(2000)}`;
    for (const text of [wildcard, many]) {
      const rules = parseRobots('https://x.test/robots.txt', text, UA);
      const started = performance.now();
      for (let i = 0; i < 10; i += 1) expect(rules.isAllowed(`${url}z${i}`)).toBe(true);
      expect((performance.now() - started) / 10).toBeLessThan(50);
    }
    // Past MAX_WILDCARD_RULES, wildcard rules are ignored; plain prefixes are all kept.
    const past = `User-agent: *\n${'Disallow: /*x\n'.repeat(MAX_WILDCARD_RULES)}Disallow: /*a\nDisallow: /b\n`;
    const rules = parseRobots('https://x.test/robots.txt', `${past}${'Disallow: /c\n'.repeat(50_000)}`, UA);
    expect(rules.isAllowed('https://x.test/a')).toBe(true);
    expect(rules.isAllowed('https://x.test/b')).toBe(false);
    expect(rules.isAllowed('https://x.test/c')).toBe(false);
  });
});

describe('RobotsCache', () => {
  const info: RobotsInfo = { sitemaps: [], crawlDelayMs: null, isAllowed: () => true };

  it('loads once per origin, sharing a load in flight', async () => {
    let loads = 0;
    const cache = new RobotsCache(async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 5));
      return info;
    });
    await Promise.all([
      cache.get('https://a.test'),
      cache.get('https://a.test'),
      cache.get('https://a.test'),
    ]);
    await cache.get('https://a.test');
    expect(loads).toBe(1);
    await cache.get('https://b.test');
    expect(loads).toBe(2);
  });

  it('reloads after the TTL and after a failed load', async () => {
    let now = 0;
    let loads = 0;
    let fail = true;
    const cache = new RobotsCache(
      async () => {
        loads += 1;
        if (fail) throw new Error('boom');
        return info;
      },
      { ttlMs: 1000, now: () => now },
    );
    await expect(cache.get('https://a.test')).rejects.toThrow('boom');
    fail = false;
    await cache.get('https://a.test');
    expect(loads).toBe(2);
    now = 999;
    await cache.get('https://a.test');
    expect(loads).toBe(2);
    now = 1001;
    await cache.get('https://a.test');
    expect(loads).toBe(3);
  });
});
