import robotsParser from 'robots-parser';
import type { RobotsInfo } from './types.js';

/**
 * The product token robots.txt groups are matched against: the user agent's
 * first word up to its version (`webdata/0.1 (+…)` → `webdata`), lower case.
 */
export function robotsAgentToken(userAgent: string): string {
  const first = userAgent.trim().split(/[\s/]/, 1)[0] ?? '';
  return first.toLowerCase() || '*';
}

/** Rules that allow everything: no robots.txt, or one that could not be read. */
export function allowAllRobots(): RobotsInfo {
  return { sitemaps: [], crawlDelayMs: null, isAllowed: () => true };
}

/**
 * Parses a robots.txt served at `robotsUrl` for the given user agent. The
 * group for the agent's product token applies, else the `*` group.
 * URLs of another origin are not governed by this file and are allowed.
 */
export function parseRobots(robotsUrl: string, text: string, userAgent: string): RobotsInfo {
  const robots = robotsParser(robotsUrl, text);
  const token = robotsAgentToken(userAgent);
  const delaySeconds = robots.getCrawlDelay(token);
  const sitemaps: string[] = [];
  for (const entry of robots.getSitemaps()) {
    try {
      const absolute = new URL(entry, robotsUrl);
      if (absolute.protocol === 'http:' || absolute.protocol === 'https:') sitemaps.push(absolute.href);
    } catch {
      // a malformed Sitemap: line is ignored
    }
  }
  return {
    sitemaps: [...new Set(sitemaps)],
    crawlDelayMs:
      typeof delaySeconds === 'number' && Number.isFinite(delaySeconds) && delaySeconds >= 0
        ? Math.round(delaySeconds * 1000)
        : null,
    isAllowed: (url: string) => robots.isAllowed(url, token) !== false,
  };
}

interface CacheEntry {
  expiresAt: number;
  value: Promise<RobotsInfo>;
}

/** Settings of a {@link RobotsCache}. */
export interface RobotsCacheOptions {
  /** How long one origin's rules are kept (default one hour). */
  ttlMs?: number;
  /** Origins kept at most; the oldest are dropped first (default 10,000). */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * Robots rules per origin, loaded once and kept for a TTL. Concurrent asks
 * for one origin share one load. A load that rejects is not cached, so the
 * next ask tries again (the loader decides what a failed fetch means).
 */
export class RobotsCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly load: (origin: string) => Promise<RobotsInfo>,
    options: RobotsCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60 * 60 * 1000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The rules of an origin (`https://example.com`). */
  get(origin: string): Promise<RobotsInfo> {
    const cached = this.entries.get(origin);
    if (cached && cached.expiresAt > this.now()) return cached.value;
    if (cached) this.entries.delete(origin);
    const value = this.load(origin);
    const entry: CacheEntry = { expiresAt: this.now() + this.ttlMs, value };
    this.entries.set(origin, entry);
    value.catch(() => {
      if (this.entries.get(origin) === entry) this.entries.delete(origin);
    });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return value;
  }

  /** Drops every cached origin. */
  clear(): void {
    this.entries.clear();
  }
}
