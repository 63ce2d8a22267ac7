import type { RobotsInfo } from './types.js';

/*
 * Why robots.txt is read here and not by robots-parser (used until 2026-11-27): its matcher
 * (Google's algorithm) allocates an array as long as the path for every rule and walks it once a
 * pattern character after a `*`, and every rule is tried for every URL. A 512 KiB robots.txt of
 * `Disallow: /*a*a*a…` lines held the main thread 4.0 s for one 2,000-character URL, and one of
 * 40,000 `Disallow: /a` lines 112 ms; the check runs for every page fetched and every link
 * discovered, and the site writes the file. Here the same rules (the test compares answers with
 * robots-parser's) are matched in time linear in the URL for each rule that can apply: plain
 * prefixes are looked up by length, and at most MAX_WILDCARD_RULES patterns with `*` or `$` are
 * matched, each by finding its pieces left to right.
 */

/** Rules with `*` or `$` kept for one agent; later ones are ignored, as a file past its size cap is. */
export const MAX_WILDCARD_RULES = 500;

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

/** One group's rules, as the file's lines gave them. */
interface Group {
  rules: { pattern: string; allow: boolean }[];
  crawlDelay: number | undefined;
}

/** A group's user-agent line as a token: lower case, up to a `/` (`Bot/1.0` → `bot`). */
function groupToken(value: string): string {
  const lower = value.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash === -1 ? lower : lower.slice(0, slash)).trim();
}

/** `%xx` escapes in upper case, so `%2f` and `%2F` compare equal. */
function upperEscapes(path: string): string {
  return path.replace(/%[0-9a-fA-F]{2}/g, (sequence) => sequence.toUpperCase());
}

/** A rule's pattern with non-ASCII characters escaped as a URL's path has them. */
function normalisePattern(pattern: string): string {
  try {
    return upperEscapes(encodeURI(pattern).replace(/%25/g, '%'));
  } catch {
    return pattern;
  }
}

/**
 * The groups of a robots.txt by agent token: consecutive `User-agent` lines open one group,
 * `Allow`/`Disallow`/`Crawl-delay` lines add to every agent of the current group, and a group
 * named again adds to the same rules (as robots-parser and Google read it).
 */
function readGroups(text: string): { groups: Map<string, Group>; sitemaps: string[] } {
  const groups = new Map<string, Group>();
  const sitemaps: string[] = [];
  const agents: string[] = [];
  let lastWasAgent = false;
  const groupOf = (agent: string) => {
    let group = groups.get(agent);
    if (!group) {
      group = { rules: [], crawlDelay: undefined };
      groups.set(agent, group);
    }
    return group;
  };
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf('#');
    const line = hash === -1 ? raw : raw.slice(0, hash);
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === '') continue;
    switch (field) {
      case 'user-agent':
        if (!lastWasAgent) agents.length = 0;
        if (value) agents.push(groupToken(value));
        break;
      case 'allow':
      case 'disallow':
        for (const agent of agents) {
          const group = groupOf(agent);
          if (value) group.rules.push({ pattern: normalisePattern(value), allow: field === 'allow' });
        }
        break;
      case 'crawl-delay':
        for (const agent of agents) {
          const group = groupOf(agent);
          const delay = Number(value);
          if (!Number.isNaN(delay)) group.crawlDelay = delay;
        }
        break;
      case 'sitemap':
        if (value) sitemaps.push(value);
        break;
    }
    lastWasAgent = field === 'user-agent';
  }
  return { groups, sitemaps };
}

/** A pattern with `*` or `$`: its pieces between the `*`s, and whether it must reach the end. */
interface WildcardRule {
  pieces: string[];
  anchored: boolean;
  length: number;
  allow: boolean;
}

/**
 * Whether a path matches pieces separated by `*`: the first at the start, each next one at its
 * leftmost place after the previous (which leaves the most room for the rest), and with `$` the
 * last one at the very end.
 */
function wildcardMatches(rule: WildcardRule, path: string): boolean {
  const { pieces, anchored } = rule;
  if (!path.startsWith(pieces[0]!)) return false;
  if (pieces.length === 1) return !anchored || path.length === pieces[0]!.length;
  let at = pieces[0]!.length;
  const middle = anchored ? pieces.length - 1 : pieces.length;
  for (let i = 1; i < middle; i += 1) {
    const found = path.indexOf(pieces[i]!, at);
    if (found === -1) return false;
    at = found + pieces[i]!.length;
  }
  if (!anchored) return true;
  const last = pieces[pieces.length - 1]!;
  return path.length - last.length >= at && path.endsWith(last);
}

/** One group's rules, ready to match: plain prefixes by length, patterns with wildcards in a list. */
class GroupMatcher {
  /** Plain prefixes by length, longest first: for each, whether a rule allows (true wins a tie). */
  private readonly prefixes = new Map<number, Map<string, boolean>>();
  private readonly lengths: number[];
  private readonly wildcards: WildcardRule[] = [];

  constructor(rules: readonly { pattern: string; allow: boolean }[]) {
    for (const { pattern, allow } of rules) {
      const anchored = pattern.endsWith('$');
      if (!anchored && !pattern.includes('*')) {
        let byPattern = this.prefixes.get(pattern.length);
        if (!byPattern) {
          byPattern = new Map();
          this.prefixes.set(pattern.length, byPattern);
        }
        byPattern.set(pattern, allow || byPattern.get(pattern) === true);
      } else if (this.wildcards.length < MAX_WILDCARD_RULES) {
        const body = anchored ? pattern.slice(0, -1) : pattern;
        this.wildcards.push({ pieces: body.split('*'), anchored, length: pattern.length, allow });
      }
    }
    this.lengths = [...this.prefixes.keys()].sort((a, b) => b - a);
  }

  /** The longest rule matching the path decides; between two as long, Allow; no rule allows. */
  isAllowed(path: string): boolean {
    let bestLength = -1;
    let bestAllow = true;
    for (const length of this.lengths) {
      if (length > path.length) continue;
      const allow = this.prefixes.get(length)!.get(path.slice(0, length));
      if (allow !== undefined) {
        bestLength = length;
        bestAllow = allow;
        break;
      }
    }
    for (const rule of this.wildcards) {
      if (rule.length < bestLength || (rule.length === bestLength && (bestAllow || !rule.allow))) continue;
      if (!wildcardMatches(rule, path)) continue;
      bestLength = rule.length;
      bestAllow = rule.allow;
    }
    return bestLength === -1 || bestAllow;
  }
}

/**
 * Parses a robots.txt served at `robotsUrl` for the given user agent. The
 * group for the agent's product token applies, else the `*` group.
 * URLs of another origin are not governed by this file and are allowed.
 */
export function parseRobots(robotsUrl: string, text: string, userAgent: string): RobotsInfo {
  const { groups, sitemaps: listed } = readGroups(text);
  const group = groups.get(robotsAgentToken(userAgent)) ?? groups.get('*');
  const matcher = new GroupMatcher(group?.rules ?? []);
  const origin = new URL(robotsUrl).origin;
  const sitemaps: string[] = [];
  for (const entry of listed) {
    try {
      const absolute = new URL(entry, robotsUrl);
      if (absolute.protocol === 'http:' || absolute.protocol === 'https:') sitemaps.push(absolute.href);
    } catch {
      // a malformed Sitemap: line is ignored
    }
  }
  const delaySeconds = group?.crawlDelay;
  return {
    sitemaps: [...new Set(sitemaps)],
    crawlDelayMs:
      typeof delaySeconds === 'number' && Number.isFinite(delaySeconds) && delaySeconds >= 0
        ? Math.round(delaySeconds * 1000)
        : null,
    isAllowed: (url: string) => {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return true;
      }
      if (parsed.origin !== origin) return true;
      return matcher.isAllowed(upperEscapes(parsed.pathname + parsed.search));
    },
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
