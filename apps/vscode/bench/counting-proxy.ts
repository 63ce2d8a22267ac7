import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the proxy passed on: when it arrived, its method and path (no query, no key). */
export interface CountedRequest {
  at: number;
  method: string;
  path: string;
}

/** A running counting proxy. */
export interface CountingProxy {
  /** `http://127.0.0.1:PORT`: give this to the client instead of the server's address. */
  url: string;
  /** Every request passed on so far, in arrival order. */
  readonly requests: readonly CountedRequest[];
  close(): Promise<void>;
}

/** The one path the proxy answers itself (uncounted): `{ "requests": N }`, read by the bench inside VS Code. */
export const COUNT_PATH = '/__bench/count';

/**
 * A plain HTTP proxy on 127.0.0.1 in front of the real server that counts
 * the requests the extension sends: what the bench reports is what crossed
 * the wire, whatever the client does inside. Bodies stream through both
 * ways, so long polls are held exactly as without the proxy.
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const requests: CountedRequest[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === COUNT_PATH) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ requests: requests.length }));
      return;
    }
    requests.push({ at: performance.now(), method: req.method ?? 'GET', path });
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
    // The client gave up (an aborted long poll): give up upstream too.
    res.on('close', () => {
      if (!res.writableFinished) forwarded.destroy();
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
