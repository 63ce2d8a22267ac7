import { createClient } from '@webdata/core';

/** What was seeded: every run's id, newest last, and the ids of those left in flight. */
export interface SeededRuns {
  ids: string[];
  inFlight: string[];
}

/**
 * Puts `total` runs on the server, `inFlight` of them left in flight (their
 * page is one the fixture site holds until released) and spread evenly
 * through the list; the others are cancelled at once, which makes them
 * terminal without fetching anything.
 */
export async function seedRuns(
  server: { url: string; apiKey: string },
  siteUrl: string,
  total: number,
  inFlight: number,
): Promise<SeededRuns> {
  const client = createClient({ baseUrl: server.url, apiKey: server.apiKey });
  const every = Math.floor(total / inFlight);
  const ids: string[] = [];
  const live: string[] = [];
  try {
    for (let i = 0; i < total; i++) {
      const run = await client.runs.start({ type: 'crawl', urls: [`${siteUrl}/hold/run-${i}`] });
      ids.push(run.id);
      if (i % every === every - 1 && live.length < inFlight) live.push(run.id);
      else await client.runs.cancel(run.id);
    }
  } finally {
    await client.close();
  }
  return { ids, inFlight: live };
}
