import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A route of the fixture site: a response, or a handler for odd behaviour. */
export type FixtureRoute =
  | { status?: number; type?: string; body: string | Buffer; headers?: Record<string, string> }
  | ((request: IncomingMessage, response: ServerResponse) => void);

/**
 * A real HTTP site on 127.0.0.1 for crawl tests: fixed routes, a request log
 * (to check each page was fetched once), a count of requests in flight and a
 * record of aborted requests.
 */
export class FixtureSite {
  readonly requests: string[] = [];
  readonly aborted: string[] = [];
  private readonly server: Server;
  url = '';

  constructor(readonly routes: Record<string, FixtureRoute>) {
    this.server = createServer((request, response) => {
      const path = request.url ?? '/';
      this.requests.push(path);
      request.once('close', () => {
        if (!response.writableFinished) this.aborted.push(path);
      });
      const route = this.routes[path] ?? this.routes[path.split('?')[0]!];
      if (!route) {
        response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
        return;
      }
      if (typeof route === 'function') {
        route(request, response);
        return;
      }
      response.writeHead(route.status ?? 200, {
        'content-type': route.type ?? 'text/html; charset=utf-8',
        ...route.headers,
      });
      response.end(route.body);
    });
  }

  /** Listens on `host`, a loopback address (127.0.0.2 is another host than 127.0.0.1 to a crawler). */
  async start(host = '127.0.0.1'): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, host, resolve));
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** How many times `path` was requested. */
  count(path: string): number {
    return this.requests.filter((p) => p === path).length;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A small HTML page with a title, some text and links. */
export function page(title: string, links: string[] = [], body = ''): string {
  const anchors = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html><head><title>${title}</title></head><body><main><article><h1>${title}</h1>
<p>${body || `This page is about ${title}. It has enough words to count as the main content of the page for the reader.`}</p>
<ul>${anchors}</ul></article></main></body></html>`;
}

/** A page that answers only after `ms` (for time-outs and cancel during a fetch). */
export function slowRoute(ms: number): FixtureRoute {
  return (_request, response) => {
    const timer = setTimeout(() => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page('Slow page'));
    }, ms);
    response.once('close', () => clearTimeout(timer));
  };
}

/** A site of `count` linked pages: /p/0 … /p/{count-1}, each linking to the next few and back to the start. */
export function generatedSite(count: number, fanOut = 3): Record<string, FixtureRoute> {
  const routes: Record<string, FixtureRoute> = {};
  for (let i = 0; i < count; i++) {
    const links = Array.from({ length: fanOut }, (_, k) => `/p/${(i * fanOut + k + 1) % count}`);
    links.push('/p/0');
    routes[`/p/${i}`] = {
      body: page(`Page ${i}`, links, `Generated page number ${i} with some words about topic ${i % 17}.`),
    };
  }
  return routes;
}
