import { describe, expect, it } from 'vitest';
import { parseRobots, RobotsCache, robotsAgentToken } from './robots.js';
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
