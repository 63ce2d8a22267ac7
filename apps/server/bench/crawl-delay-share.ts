/**
 * `tsx bench/crawl-delay-share.ts <main.js> [<other main.js> …] [rounds]`: how long one key's crawl
 * of 48 pages of one host (each answered in 300 ms) takes alone, and beside the same key's crawl
 * of 40 pages of another host whose robots.txt asks for 2 s between requests (started just
 * before it). Each build runs in a fresh server of its own (a child process, embedded store, 8
 * slots); with several builds the rounds alternate. The polite crawl alone takes 80 s: what is
 * measured is whether its pages, waiting for their turns, hold the slots the other crawl needs.
 * Sites on 127.0.0.1 and 127.0.0.2 (two hosts to the crawler).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiClient, waitForRun } from '../test/api-client.js';
import { startChild, stopChild } from './child-process.js';

const QUICK_PAGES = 48;
const POLITE_PAGES = 40;

function site(host: string, pageMs: number, robots: string) {
  const server = createServer((request, response) => {
    if (request.url === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
      return;
    }
    const timer = setTimeout(() => {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<html><head><title>${request.url}</title></head><body><p>${'words '.repeat(200)}</p></body></html>`,
        );
    }, pageMs);
    response.once('close', () => clearTimeout(timer));
  });
  return new Promise<{ url: string; close: () => void }>((resolve) =>
    server.listen(0, host, () =>
      resolve({
        url: `http://${host}:${(server.address() as AddressInfo).port}`,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

async function round(mainJs: string, quickUrl: string, politeUrl: string): Promise<[number, number]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webdata-crawl-delay-share-'));
  const server = await startChild(
    [mainJs, 'start', '--port', '0', '--data-dir', dataDir, '--allow-private-networks'],
    /listening on (http:\/\/\S+)[\s\S]*^API key: (wd_key_[0-9a-z]{26}_[A-Za-z0-9_-]{32})$/m,
    { ...process.env, WEBDATA_LOG_LEVEL: 'warn', WEBDATA_WORKERS: '8' },
    [],
    false,
  );
  const call = apiClient(server.match[1]!, server.match[2]!);
  const quickCrawl = async (tag: string) => {
    const start = performance.now();
    const urls = Array.from({ length: QUICK_PAGES }, (_, i) => `${quickUrl}/${tag}/${i}`);
    const created = await call('POST', '/api/v1/crawl', { urls, limit: QUICK_PAGES });
    const run = await waitForRun(call, created.body.id, 600_000);
    if (run.status !== 'completed') throw new Error(`quick crawl ${run.status}`);
    return (performance.now() - start) / 1000;
  };
  try {
    const alone = await quickCrawl('alone');
    const urls = Array.from({ length: POLITE_PAGES }, (_, i) => `${politeUrl}/polite/${i}`);
    const polite = await call('POST', '/api/v1/crawl', { urls, limit: POLITE_PAGES });
    await sleep(300);
    const beside = await quickCrawl('beside');
    await call('POST', `/api/v1/runs/${polite.body.id}/cancel`, {});
    return [alone, beside];
  } finally {
    await stopChild(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
const rounds = /^\d+$/.test(args.at(-1) ?? '') ? Number(args.pop()) : 1;
if (args.length === 0) throw new Error('usage: crawl-delay-share.ts <main.js> [<other main.js> …] [rounds]');
const quick = await site('127.0.0.1', 300, 'User-agent: *\nAllow: /\n');
const polite = await site('127.0.0.2', 50, 'User-agent: *\nCrawl-delay: 2\n');
try {
  console.log(
    `crawl-delay share: ${QUICK_PAGES} pages of one host alone, then beside a crawl of a host with Crawl-delay: 2`,
  );
  for (let r = 0; r < rounds; r += 1) {
    for (const mainJs of r % 2 === 0 ? args : [...args].reverse()) {
      const [alone, beside] = await round(mainJs, quick.url, polite.url);
      console.log(
        `  round ${r + 1} ${mainJs}: alone ${alone.toFixed(1)} s, beside ${beside.toFixed(1)} s (ratio ${(beside / alone).toFixed(2)})`,
      );
    }
  }
} finally {
  quick.close();
  polite.close();
}
