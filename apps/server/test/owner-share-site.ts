import { type FixtureRoute, page } from './fixture-site.js';

/** How many of key A's slow pages were asked for, answered, and are being answered now. */
export interface SlowPageCounts {
  requested: number;
  answered: number;
  inFlight: number;
}

/**
 * The site of the owner-share test and bench: key A's slow pages `/a/0` … (each answered after
 * `holdMs`, as a slow-drip page or a screenshot wait would hold a worker slot) and key B's small
 * crawl, `/b/0` → `/b/1` → `/b/2` (each page found on the one before), with counts of A's pages.
 */
export function ownerShareRoutes(
  slowPages: number,
  holdMs: number,
): { routes: Record<string, FixtureRoute>; slow: SlowPageCounts } {
  const slow: SlowPageCounts = { requested: 0, answered: 0, inFlight: 0 };
  const routes: Record<string, FixtureRoute> = {
    '/b/0': { body: page('B zero', ['/b/1']) },
    '/b/1': { body: page('B one', ['/b/2']) },
    '/b/2': { body: page('B two') },
  };
  for (let i = 0; i < slowPages; i += 1) {
    routes[`/a/${i}`] = (_request, response) => {
      slow.requested += 1;
      slow.inFlight += 1;
      const timer = setTimeout(() => {
        slow.answered += 1;
        slow.inFlight -= 1;
        response.writeHead(200, { 'content-type': 'text/html' }).end(page(`Slow page ${i}`));
      }, holdMs);
      response.once('close', () => {
        if (!response.writableFinished) slow.inFlight -= 1;
        clearTimeout(timer);
      });
    };
  }
  return { routes, slow };
}
