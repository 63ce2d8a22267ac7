import { inject } from 'vitest';

/** What the suite runs against, decided once by the global setup and shared with every test file. */
export interface ConformanceTarget {
  /** Base URL of the server under test, without a trailing slash (paths start with `/api/v1`). */
  baseUrl: string;
  /** An API key of the server under test. */
  apiKey: string;
  /** A key of another owner, for isolation rules; null when not given. */
  secondApiKey: string | null;
  /** Base URL of a fixture site the server can fetch; null when there is none. */
  fixtureUrl: string | null;
  /**
   * True when the suite started our own server: tests then also check our
   * exact shapes with the contract's strict schemas and may start more servers.
   */
  ownServer: boolean;
  /** A foreign server promises to refuse loopback URLs with 422 (`WEBDATA_EXPECT_URL_GUARD=1`). */
  expectUrlGuard: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformanceTarget: ConformanceTarget;
  }
}

/** The target of this run (inside a test file). */
export function conformanceTarget(): ConformanceTarget {
  return inject('conformanceTarget');
}

/** Why a test that needs the server to fetch the fixture site is skipped. */
export const NEEDS_FIXTURE =
  'needs a fixture site the server can reach: set WEBDATA_FIXTURE_URL (see README) to run it against a foreign server';

/** Why a test that needs a second owner's key is skipped. */
export const NEEDS_SECOND_KEY =
  "needs another owner's key: set WEBDATA_SECOND_API_KEY to run it against a foreign server";
