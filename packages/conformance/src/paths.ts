import type { TestContext } from 'vitest';
import { type ConformanceTarget, NEEDS_FIXTURE, NEEDS_SECOND_KEY } from './target.js';

/**
 * The base URL of the fixture site for a test that needs the server to fetch
 * it; skips the test, saying why, when the target has none.
 */
export function requireFixture(target: ConformanceTarget, context: TestContext): string {
  if (!target.fixtureUrl) context.skip(NEEDS_FIXTURE);
  return target.fixtureUrl;
}

/** Another owner's key, or a skip saying why there is none. */
export function requireSecondKey(target: ConformanceTarget, context: TestContext): string {
  if (!target.secondApiKey) context.skip(NEEDS_SECOND_KEY);
  return target.secondApiKey;
}

/** Skips a test that checks a decision of our own server rather than a rule every server must follow. */
export function requireOwnServer(target: ConformanceTarget, context: TestContext, why: string): void {
  if (!target.ownServer)
    context.skip(`checks our own server's choice (${why}); skipped against a foreign server`);
}

/**
 * A URL for a run that only has to exist: a fixture page when there is a
 * fixture, otherwise a name under `.invalid` (RFC 2606), which never resolves.
 */
export function anyPageUrl(target: ConformanceTarget, path = '/c'): string {
  return target.fixtureUrl ? `${target.fixtureUrl}${path}` : `https://conformance.invalid${path}`;
}

/** A unique suffix for names (collections, tokens) so test files never collide. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
