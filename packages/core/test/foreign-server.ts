import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the foreign server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
  at: number;
}

/** What a handler answers with; `drop` destroys the socket without an answer. */
export type Answer =
  | { status: number; body?: unknown; raw?: string; headers?: Record<string, string> }
  | { drop: true }
  | { hang: true };

/** A tiny HTTP server on 127.0.0.1:0 standing in for *another* implementation of the specification. */
export interface ForeignServer {
  url: string;
  requests: SeenRequest[];
  /** Requests whose path starts with `prefix` (and method, when given). */
  seen(prefix: string, method?: string): SeenRequest[];
  close(): Promise<void>;
}

export async function startForeignServer(
  handler: (request: SeenRequest) => Answer | Promise<Answer>,
): Promise<ForeignServer> {
  const requests: SeenRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      at: Date.now(),
    };
    requests.push(seen);
    const answer = await handler(seen);
    if ('drop' in answer) {
      req.socket.destroy();
      return;
    }
    if ('hang' in answer) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    const payload = answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    res.writeHead(answer.status, {
      ...(payload && answer.raw === undefined ? { 'content-type': 'application/json' } : {}),
      ...answer.headers,
    });
    res.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    seen: (prefix, method) =>
      requests.filter((r) => r.path.startsWith(prefix) && (method === undefined || r.method === method)),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A run in the foreign server's own dialect: the five specified fields plus extras of its own. */
export function foreignRun(id: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    status,
    type: 'extract',
    urls: ['https://example.org/'],
    created_at: '2026-01-01T00:00:00Z',
    vendor_region: 'eu-1',
    ...extra,
  };
}
