/**
 * The benchmark's server side, in its own process so that the client's CPU
 * and heap are measured alone: the real server at its DEFAULT rate limit (20
 * requests a second per key, bursts of 40) plus a fixture site whose pages
 * are held until the bench calls `/go` (when watching begins), then answer
 * `?delay=` ms after it, so every run finishes while it is watched, when the
 * bench wants, however long creating the runs took (`/stop` holds pages again). Keys: one
 * for the watching client, and creator keys of the same owner (each key has
 * its own rate budget), so creating the runs does not spend the watcher's.
 * Prints one JSON line `{ url, watcherKey, creatorKeys, siteUrl }`, then runs
 * until stdin closes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Pages held until the bench says go (`/go`), then answered `?delay=` ms after it. */
let goAt: number | undefined;
const held = new Set<() => void>();
const site = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/robots.txt') return void res.writeHead(404).end();
  if (url.pathname === '/go') {
    goAt = Date.now();
    for (const release of held) release();
    held.clear();
    return void res.writeHead(204).end();
  }
  if (url.pathname === '/stop') {
    goAt = undefined;
    return void res.writeHead(204).end();
  }
  const delay = Math.min(120_000, Number(url.searchParams.get('delay') ?? '0'));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answer = () => {
    timer = setTimeout(
      () => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<html><head><title>${url.pathname}</title></head><body><p>ok</p></body></html>`);
      },
      Math.max(0, (goAt ?? Date.now()) + delay - Date.now()),
    );
  };
  if (goAt === undefined) held.add(answer);
  else answer();
  res.on('close', () => {
    held.delete(answer);
    clearTimeout(timer);
  });
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const dataDir = mkdtempSync(join(tmpdir(), 'webdata-core-bench-'));
const concurrency = Number(process.env.BENCH_SERVER_CONCURRENCY ?? '1200');
// Imported through a computed specifier, as in the tests: this package does not type-check the server.
const serverModule = '@webdata/server';
const { startServer, createApiKey } = (await import(serverModule)) as {
  startServer(options: Record<string, unknown>): Promise<{
    url: string;
    server: { store: unknown };
    close(): Promise<void>;
  }>;
  createApiKey(store: unknown, options: { owner: string; name: string }): Promise<{ key: string }>;
};
// No rate-limit settings: the server's defaults.
const server = await startServer({
  port: 0,
  dataDir,
  logLevel: 'silent',
  allowPrivateNetworks: true,
  workerConcurrency: concurrency,
  perHostConcurrency: concurrency,
  // A page is held from its fetch until the bench's go plus its delay: longer than the default 30 s allows.
  pageTimeoutMs: 90_000,
});
const owner = 'own_bench';
const watcherKey = (await createApiKey(server.server.store, { owner, name: 'watcher' })).key;
const creatorKeys: string[] = [];
for (let i = 0; i < Number(process.env.BENCH_CREATOR_KEYS ?? '30'); i++) {
  creatorKeys.push((await createApiKey(server.server.store, { owner, name: `creator-${i}` })).key);
}
process.stdout.write(
  `${JSON.stringify({ url: server.url, watcherKey, creatorKeys, siteUrl: `http://127.0.0.1:${(site.address() as AddressInfo).port}` })}\n`,
);

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  await server.close();
  site.closeAllConnections();
  site.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
process.on('SIGTERM', shutdown);
process.stdin.resume();
