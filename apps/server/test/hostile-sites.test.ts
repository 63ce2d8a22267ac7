/**
 * A crawled site and a run's own rules cannot hold the server: path globs made to backtrack, a
 * robots.txt made to be slow to match, and links longer than any client may ask for. The server
 * runs in this process, so the event loop's longest delay during the run is the hold a request
 * would have waited behind (before: 13 s for the globs, 12 s for the robots.txt).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForRun } from './api-client.js';
import { FixtureSite, page } from './fixture-site.js';
import { startTestServer, type TestServer } from './test-server.js';

/** Forty `a`s: ten stars of a glob backtrack over them for seconds in a backtracking RegExp. */
const LONG_A = `/${'a'.repeat(40)}`;
/** 2,000 characters: robots-parser walked each `*` rule's pattern over the whole path. */
const VERY_LONG_A = `/${'a'.repeat(2000)}`;
const TOO_LONG = `/${'b'.repeat(2100)}`;
/** About 500 KiB of `Disallow: /*a*a…*b` lines (under the 512 KiB read), none matching an all-`a` path. */
const SLOW_ROBOTS = `User-agent: *\n${`Disallow: /${'*a'.repeat(2000)}b\n`.repeat(125)}`;

let site: FixtureSite;
let server: TestServer;

beforeAll(async () => {
  site = new FixtureSite({
    '/': { body: page('Start', [`${LONG_A}1`, `${LONG_A}2`, TOO_LONG]) },
    [`${LONG_A}1`]: { body: page('One') },
    [`${LONG_A}2`]: { body: page('Two') },
    [TOO_LONG]: { body: page('Too long') },
  });
  await site.start();
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
  await site?.stop();
});

/** Runs `work` and answers the event loop's longest delay meanwhile, in ms. */
async function longestHold(work: () => Promise<void>): Promise<number> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  try {
    await work();
  } finally {
    loop.disable();
  }
  return loop.max / 1e6;
}

describe('a deep crawl against a site and globs made to be slow', () => {
  it('matches globs that backtrack without holding the loop, and follows no link longer than 2,048 characters', {
    timeout: 90_000,
  }, async () => {
    let urls: string[] = [];
    const hold = await longestHold(async () => {
      const created = await server.call('POST', '/api/v1/deep-crawl', {
        url: `${site.url}/`,
        respect_robots: false,
        use_sitemap: false,
        exclude_paths: [`${'*a'.repeat(10)}*b`],
      });
      expect(created.status).toBe(202);
      const run = await waitForRun(server.call, created.body.id, 60_000);
      expect(run.status).toBe('completed');
      const results = await server.call('GET', `/api/v1/runs/${run.id}/results`);
      urls = results.body.data.map((result: { url: string }) => new URL(result.url).pathname);
    });
    expect(urls.sort()).toEqual(['/', `${LONG_A}1`, `${LONG_A}2`]);
    expect(site.count(TOO_LONG)).toBe(0);
    expect(hold).toBeLessThan(1000);
  });

  it('matches a hostile robots.txt without holding the loop', { timeout: 90_000 }, async () => {
    const robotsSite = new FixtureSite({
      '/robots.txt': { type: 'text/plain', body: SLOW_ROBOTS },
      '/': { body: page('Start', [`${VERY_LONG_A}1`, `${VERY_LONG_A}2`]) },
      [`${VERY_LONG_A}1`]: { body: page('One') },
      [`${VERY_LONG_A}2`]: { body: page('Two') },
    });
    await robotsSite.start();
    try {
      const hold = await longestHold(async () => {
        const created = await server.call('POST', '/api/v1/deep-crawl', {
          url: `${robotsSite.url}/`,
          use_sitemap: false,
        });
        expect(created.status).toBe(202);
        const run = await waitForRun(server.call, created.body.id, 60_000);
        expect(run.status).toBe('completed');
      });
      expect(robotsSite.count(`${VERY_LONG_A}1`)).toBe(1);
      expect(robotsSite.count(`${VERY_LONG_A}2`)).toBe(1);
      expect(hold).toBeLessThan(1000);
    } finally {
      await robotsSite.stop();
    }
  });

  it('refuses globs whose matching could cost too much, naming the fields (400)', async () => {
    const slow = `${'*a'.repeat(254)}*b`;
    const refused = await server.call('POST', '/api/v1/deep-crawl', {
      url: `${site.url}/`,
      include_paths: ['/docs/**'],
      exclude_paths: [slow, `${slow}c`, `${slow}d`],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_request');
    expect(refused.body.error.details.map((detail: { path: string[] }) => detail.path)).toEqual([
      ['include_paths'],
      ['exclude_paths'],
    ]);
    // 100 plain globs of 512 characters, the contract's most, are fine: their plain starts cost nothing.
    const plain = Array.from(
      { length: 100 },
      (_, i) => `/${String(i).padStart(3, '0')}${'x'.repeat(500)}/**`,
    );
    const accepted = await server.call('POST', '/api/v1/crawl', {
      url: `${site.url}/`,
      exclude_paths: plain,
    });
    expect(accepted.status).toBe(202);
  });
});
