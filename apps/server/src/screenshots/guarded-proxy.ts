import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import { PageError } from '../errors.js';
import {
  type AddressPolicy,
  createGuardedLookup,
  defaultAddressPolicy,
  type ResolveAll,
  systemResolveAll,
} from '../fetch/guarded-connector.js';
import { addressRefused, checkHopUrl, classifyAddress } from '../fetch/ssrf-guard.js';

/** Header on the proxy's 403 answer naming why a plain-HTTP request was refused. */
export const REFUSAL_HEADER = 'x-webdata-refused';

/** Settings of {@link startGuardedProxy}. */
export interface GuardedProxyOptions {
  /** Which resolved addresses may be connected to (default: public addresses only). */
  policy?: AddressPolicy | undefined;
  resolveAll?: ResolveAll | undefined;
  connectTimeoutMs?: number | undefined;
}

/** A running guarded proxy. */
export interface GuardedProxy {
  /** `http://127.0.0.1:<port>`, for Playwright's `proxy.server`. */
  readonly server: string;
  /** Every refusal so far, in order. */
  readonly refusals: PageError[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/**
 * An HTTP forward proxy on 127.0.0.1 that applies the SSRF guard to every
 * connection a browser makes through it: plain HTTP requests, CONNECT
 * tunnels (HTTPS, WebSockets) and therefore every redirect hop, sub-resource,
 * worker and frame. Host names are resolved here and the socket connects to
 * exactly the addresses that were checked, so DNS rebinding cannot slip a
 * private address in between check and connect.
 *
 * Chromium is pointed at it per browser context (Playwright's `proxy`
 * option); Playwright then also routes loopback through it (`<-loopback>`).
 */
export async function startGuardedProxy(options: GuardedProxyOptions = {}): Promise<GuardedProxy> {
  const policy = options.policy ?? defaultAddressPolicy(false);
  const lookup = createGuardedLookup(policy, options.resolveAll ?? systemResolveAll);
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const refusals: PageError[] = [];
  const sockets = new Set<Socket>();

  /** The target's host and port, or the refusal (bad URL, local name, refused literal address). */
  const checkTarget = (url: URL): { host: string; port: number } | PageError => {
    try {
      checkHopUrl(url, true); // scheme, credentials and syntax; addresses are judged by `policy`
      const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      const name = host.toLowerCase().replace(/\.$/, '');
      if (name === 'localhost' || name.endsWith('.localhost')) checkHopUrl(url, false);
      if (isIP(host) !== 0 && !policy(host)) return addressRefused(host, host, classifyAddress(host));
      return { host, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
    } catch (error) {
      if (error instanceof PageError) return error;
      throw error;
    }
  };
  const refuse = (error: PageError): PageError => {
    refusals.push(error);
    return error;
  };

  const server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('this is a forward proxy: absolute URLs only');
      return;
    }
    const target = checkTarget(url);
    if (target instanceof PageError) {
      refuse(target);
      res.writeHead(403, { [REFUSAL_HEADER]: encodeURIComponent(target.message) }).end(target.message);
      return;
    }
    const upstream = httpRequest({
      host: target.host,
      port: target.port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: withoutHopByHop(req.headers),
      lookup,
      timeout: connectTimeoutMs,
    });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.headers));
      answer.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('connect timeout')));
    upstream.on('error', (error) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof PageError) {
        refuse(error);
        res.writeHead(403, { [REFUSAL_HEADER]: encodeURIComponent(error.message) }).end(error.message);
      } else {
        res.writeHead(502).end('upstream unreachable');
      }
    });
    req.pipe(upstream);
  });

  server.on('connect', (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let url: URL;
    try {
      url = new URL(`https://${req.url ?? ''}`);
    } catch {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const target = checkTarget(url);
    if (target instanceof PageError) {
      refuse(target);
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = connect({ host: target.host, port: target.port, lookup, timeout: connectTimeoutMs });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    let established = false;
    upstream.once('connect', () => {
      established = true;
      upstream.setTimeout(0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('connect timeout')));
    upstream.on('error', (error) => {
      if (error instanceof PageError) refuse(error);
      if (client.destroyed) return;
      // Once the tunnel carries the client's bytes (TLS), no status line may be injected.
      if (established) {
        client.destroy();
        return;
      }
      client.end(
        error instanceof PageError ? 'HTTP/1.1 403 Forbidden\r\n\r\n' : 'HTTP/1.1 502 Bad Gateway\r\n\r\n',
      );
    });
  });
  // Upgrades are only expected inside CONNECT tunnels; a bare one is not forwarded.
  server.on('upgrade', (_req, socket: Socket) => socket.destroy());
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    server: `http://127.0.0.1:${port}`,
    refusals,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
