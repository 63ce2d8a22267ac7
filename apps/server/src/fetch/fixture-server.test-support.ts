import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One route of a fixture server. */
export type FixtureHandler = (req: IncomingMessage, res: ServerResponse, server: FixtureServer) => void;

/**
 * A real HTTP server on 127.0.0.1, port 0, for fetcher tests: routes by path,
 * counts hits per path and the requests in flight (and their peak).
 */
export interface FixtureServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  hits: Map<string, number>;
  /** Requests whose response has not finished. */
  active: number;
  peakActive: number;
  /** Paths whose request was closed by the client before the response finished. */
  abortedPaths: string[];
  /** Times (performance.now) at which each path's requests arrived. */
  arrivals: Map<string, number[]>;
  close(): Promise<void>;
}

/** Starts a fixture server with the given routes; unknown paths answer 404. */
export async function startFixtureServer(routes: Record<string, FixtureHandler>): Promise<FixtureServer> {
  const fixture: FixtureServer = {
    origin: '',
    port: 0,
    hits: new Map(),
    active: 0,
    peakActive: 0,
    abortedPaths: [],
    arrivals: new Map(),
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    fixture.hits.set(path, (fixture.hits.get(path) ?? 0) + 1);
    fixture.arrivals.set(path, [...(fixture.arrivals.get(path) ?? []), performance.now()]);
    fixture.active += 1;
    fixture.peakActive = Math.max(fixture.peakActive, fixture.active);
    let finished = false;
    res.on('finish', () => {
      finished = true;
    });
    res.on('close', () => {
      fixture.active -= 1;
      if (!finished) fixture.abortedPaths.push(path);
    });
    const handler = routes[path];
    if (handler) handler(req, res, fixture);
    else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fixture.port = port;
  fixture.origin = `http://127.0.0.1:${port}`;
  fixture.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fixture;
}
