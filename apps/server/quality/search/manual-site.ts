import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.json': 'application/json',
  '.xml': 'application/xml',
};

/**
 * A directory of files served as a website from 127.0.0.1 on an ephemeral
 * port, as a plain static web server would: `/` and directories answer their
 * `index.html`, unknown paths 404, nothing outside the directory is served.
 */
export class ManualSite {
  private readonly server: Server;
  url = '';

  constructor(readonly root: string) {
    this.server = createServer((request, response) => {
      void this.answer(request.url ?? '/').then(
        ({ status, type, body }) => response.writeHead(status, { 'content-type': type }).end(body),
        () => response.writeHead(500).end(),
      );
    });
  }

  private async answer(rawPath: string): Promise<{ status: number; type: string; body: Buffer | string }> {
    let path: string;
    try {
      path = decodeURIComponent(rawPath.split(/[?#]/)[0] ?? '/');
    } catch {
      return { status: 400, type: 'text/plain', body: 'bad path' };
    }
    let file = normalize(join(this.root, path));
    if (file !== this.root && !file.startsWith(this.root + sep)) {
      return { status: 404, type: 'text/plain', body: 'not found' };
    }
    const info = await stat(file).catch(() => null);
    if (info?.isDirectory()) file = join(file, 'index.html');
    const body = await readFile(file).catch(() => null);
    if (body === null) return { status: 404, type: 'text/html', body: '<h1>Not found</h1>' };
    return { status: 200, type: TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream', body };
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
