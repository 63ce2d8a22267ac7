/**
 * The benchmark's server side, in its own process so that the client's CPU
 * and heap are measured alone: the real server plus a fixture site whose
 * pages answer after `?delay=` ms (so runs finish spread over time). Prints
 * one JSON line `{ url, apiKey, siteUrl }`, then runs until stdin closes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RealServer, startRealServer } from '../test/real-server.js';

const site = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/robots.txt') return void res.writeHead(404).end();
  const delay = Math.min(60_000, Number(url.searchParams.get('delay') ?? '0'));
  const timer = setTimeout(() => {
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<html><head><title>${url.pathname}</title></head><body><p>ok</p></body></html>`);
  }, delay);
  res.on('close', () => clearTimeout(timer));
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const dataDir = mkdtempSync(join(tmpdir(), 'webdata-core-bench-'));
const concurrency = Number(process.env.BENCH_SERVER_CONCURRENCY ?? '1200');
const server: RealServer = await startRealServer({
  dataDir,
  allowPrivateNetworks: true,
  rateLimitPerSecond: 1_000_000,
  rateLimitBurst: 1_000_000,
  workerConcurrency: concurrency,
  perHostConcurrency: concurrency,
});
process.stdout.write(
  `${JSON.stringify({ url: server.url, apiKey: server.apiKey, siteUrl: `http://127.0.0.1:${(site.address() as AddressInfo).port}` })}\n`,
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
