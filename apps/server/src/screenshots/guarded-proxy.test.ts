import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuardedProxy, REFUSAL_HEADER, startGuardedProxy } from './guarded-proxy.js';

/** One request through the proxy, as a browser sends it (absolute-form target). */
function viaProxy(
  proxy: GuardedProxy,
  target: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(proxy.server);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: target, headers: { host: new URL(target).host } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Opens a CONNECT tunnel; resolves with the proxy's status and the socket. */
function tunnel(proxy: GuardedProxy, authority: string): Promise<{ status: number; socket: Socket }> {
  const { port } = new URL(proxy.server);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'CONNECT', path: authority });
    req.on('connect', (res, socket) => resolve({ status: res.statusCode ?? 0, socket }));
    req.on('error', reject);
    req.end();
  });
}

describe('startGuardedProxy', () => {
  let site: Server;
  let sitePort: number;
  const hits: string[] = [];
  // *.test names resolve to loopback; only 127.0.0.1 (standing in for a public
  // address) may be connected to, so 127.0.0.2 is refused before any connect.
  const resolveAll = async (host: string) => {
    const address = { 'public.test': '127.0.0.1', 'private.test': '127.0.0.2' }[host];
    if (!address) throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  };
  const policy = (address: string) => address === '127.0.0.1';

  beforeAll(async () => {
    site = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] });
      res.end(`hello ${req.headers.host}`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    sitePort = (site.address() as AddressInfo).port;
  });
  afterAll(async () => {
    site.closeAllConnections();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  it('forwards plain HTTP to allowed addresses, keeping the Host and repeated headers', async () => {
    const proxy = await startGuardedProxy({ policy, resolveAll });
    try {
      const answer = await viaProxy(proxy, `http://public.test:${sitePort}/ok?x=1`);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(`hello public.test:${sitePort}`);
      expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
      expect(hits).toContain('/ok?x=1');
      expect(proxy.refusals).toHaveLength(0);
    } finally {
      await proxy.close();
    }
  });

  it('refuses names resolving to refused addresses, refused literals and localhost, with a reason', async () => {
    const proxy = await startGuardedProxy({ policy, resolveAll });
    try {
      const before = hits.length;
      for (const target of [
        `http://private.test:${sitePort}/secret`,
        `http://127.0.0.2:${sitePort}/secret`,
        `http://localhost:${sitePort}/secret`,
      ]) {
        const answer = await viaProxy(proxy, target);
        expect(answer.status, target).toBe(403);
        expect(decodeURIComponent(String(answer.headers[REFUSAL_HEADER]))).toMatch(/refused to connect/);
      }
      expect(hits.length).toBe(before);
      expect(proxy.refusals.map((e) => e.code)).toEqual([
        'unprocessable_url',
        'unprocessable_url',
        'unprocessable_url',
      ]);
      expect(proxy.refusals[0]?.message).toMatch(/private\.test: it resolves to a loopback address/);
      expect(proxy.refusals[0]?.message).not.toContain('127.0.0.2');
    } finally {
      await proxy.close();
    }
  });

  it('refuses every loopback address with the default policy', async () => {
    const proxy = await startGuardedProxy({ resolveAll: async () => [{ address: '127.0.0.1', family: 4 }] });
    try {
      const before = hits.length;
      expect((await viaProxy(proxy, `http://127.0.0.1:${sitePort}/`)).status).toBe(403);
      expect((await viaProxy(proxy, `http://anything.test:${sitePort}/`)).status).toBe(403);
      expect(hits.length).toBe(before);
    } finally {
      await proxy.close();
    }
  });

  it('tunnels CONNECT to allowed addresses and refuses the rest', async () => {
    const proxy = await startGuardedProxy({ policy, resolveAll });
    try {
      const open = await tunnel(proxy, `public.test:${sitePort}`);
      expect(open.status).toBe(200);
      const reply = await new Promise<string>((resolve) => {
        let text = '';
        open.socket.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (text.includes('hello')) resolve(text);
        });
        open.socket.write(`GET /tunnelled HTTP/1.1\r\nHost: public.test\r\nConnection: close\r\n\r\n`);
      });
      expect(reply).toMatch(/^HTTP\/1\.1 200/);
      open.socket.destroy();
      expect(hits).toContain('/tunnelled');

      const refused = await tunnel(proxy, `private.test:${sitePort}`);
      expect(refused.status).toBe(403);
      refused.socket.destroy();
      expect(proxy.refusals).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});
