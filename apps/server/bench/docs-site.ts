/**
 * A static file server for one of Debian's HTML manuals on 127.0.0.1, which
 * counts the HTML pages it serves: the benchmark checks from the site's side
 * that a crawler fetched every page exactly once.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/** A served manual. */
export class DocsSite {
  private server: Server | undefined;
  private readonly served = new Map<string, number>();
  /** Files read once and kept: both crawlers are served from memory, not from the disk cache's mood. */
  private readonly cache = new Map<string, Buffer | null>();
  url = '';

  constructor(readonly root: string) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void this.answer(request.url ?? '/').then(
        ({ status, type, body }) => {
          response.writeHead(status, { 'content-type': type, 'content-length': body.length });
          response.end(body);
        },
        () => {
          response.writeHead(500).end();
        },
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** How many times each HTML file was served since the last reset (path under the root → count). */
  htmlServed(): Map<string, number> {
    return new Map(this.served);
  }

  resetCounts(): void {
    this.served.clear();
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async answer(rawPath: string): Promise<{ status: number; type: string; body: Buffer }> {
    let path: string;
    try {
      path = decodeURIComponent(new URL(rawPath, 'http://site').pathname);
    } catch {
      return { status: 400, type: 'text/plain', body: Buffer.from('bad path') };
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(this.root, path));
    if (!file.startsWith(this.root + sep) && file !== this.root) {
      return { status: 404, type: 'text/plain', body: Buffer.from('not found') };
    }
    let body = this.cache.get(file);
    if (body === undefined) {
      body = (await stat(file).catch(() => null))?.isFile() ? await readFile(file) : null;
      this.cache.set(file, body);
    }
    if (body === null) return { status: 404, type: 'text/plain', body: Buffer.from('not found') };
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    if (type.startsWith('text/html')) {
      // Counted by file: `/` and `/index.html` fetched both would be one page fetched twice.
      const key = file.slice(this.root.length);
      this.served.set(key, (this.served.get(key) ?? 0) + 1);
    }
    return { status: 200, type, body };
  }
}
