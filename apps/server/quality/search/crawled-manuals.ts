import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiCall, apiClient, waitForRun } from '../../test/api-client.js';
import { exited, type ServerProcess, spawnServer } from '../../test/server-process.js';
import { ManualSite } from './manual-site.js';
import { MANUALS, type Manual } from './manuals.js';

/** The collection the manuals are crawled into. */
export const COLLECTION = 'manuals';
/** A crawl of the two manuals takes a minute or two here; past this it is reported as stuck. */
const CRAWL_DEADLINE_MS = 30 * 60_000;

/** One crawled page as the API gives it back (what the baselines index). */
export interface CrawledDocument {
  url: string;
  title: string;
  /** The page's text (`format=text` of its result): the same text our index holds as the body. */
  text: string;
}

/** What the harness keeps in a reused data directory beside the server's own files. */
interface HarnessState {
  apiKey: string;
  /** Origin each manual was served from during the crawl (the judged ids are derived from it). */
  origins: Record<string, string>;
}

/** A running server holding the crawled manuals. */
export interface CrawledManuals {
  call: ApiCall;
  origins: Record<string, string>;
  documents: CrawledDocument[];
  /** Seconds the deep crawls took (0 when a kept data directory was reused). */
  crawlSeconds: number;
  stop(): Promise<void>;
}

/** How the harness gets its server and crawl. */
export interface CrawlOptions {
  /** Keep (and on later runs reuse) the server's data and the crawl here; else a fresh temporary dir. */
  dataDir?: string | undefined;
  /** Run the built server (`dist/`, as users do) rather than the sources. */
  built?: boolean;
  /** Extra environment of the server (e.g. `WEBDATA_EMBEDDINGS_*`). */
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

/**
 * Starts the real server as a child process and deep-crawls every manual,
 * each served from its own 127.0.0.1 site, into one collection through the
 * API, then reads every page's text back through the API. With `dataDir`
 * the crawl is kept and the next run starts the server on it instead of
 * crawling again (ranking changes need no new crawl).
 */
export async function crawlManuals(options: CrawlOptions = {}): Promise<CrawledManuals> {
  const log = options.log ?? (() => {});
  const kept = options.dataDir !== undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'webdata-search-quality-'));
  mkdirSync(dataDir, { recursive: true });
  const stateFile = join(dataDir, 'harness-state.json');
  const documentsFile = join(dataDir, 'harness-documents.json');
  const reuse = kept && existsSync(stateFile) && existsSync(documentsFile);
  const serverDir = join(dataDir, 'server');
  if (!reuse) rmSync(serverDir, { recursive: true, force: true });

  const server = await spawnServer(serverDir, ['--allow-private-networks'], {
    built: options.built ?? false,
    env: { WEBDATA_RATE_LIMIT: '100000', WEBDATA_RATE_BURST: '100000', ...options.env },
  });
  const stop = async () => {
    server.child.kill('SIGTERM');
    await exited(server.child);
    if (!kept) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    if (reuse) {
      const state = JSON.parse(readFileSync(stateFile, 'utf8')) as HarnessState;
      const documents = JSON.parse(readFileSync(documentsFile, 'utf8')) as CrawledDocument[];
      log(`reusing the crawl kept in ${dataDir} (${documents.length} documents)`);
      return {
        call: apiClient(server.url, state.apiKey),
        origins: state.origins,
        documents,
        crawlSeconds: 0,
        stop,
      };
    }
    const crawled = await crawlInto(server, MANUALS, log);
    if (kept) {
      const state: HarnessState = { apiKey: server.apiKey!, origins: crawled.origins };
      writeFileSync(stateFile, JSON.stringify(state));
      writeFileSync(documentsFile, JSON.stringify(crawled.documents));
    }
    return { call: apiClient(server.url, server.apiKey!), ...crawled, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function crawlInto(
  server: ServerProcess,
  manuals: readonly Manual[],
  log: (line: string) => void,
): Promise<{ origins: Record<string, string>; documents: CrawledDocument[]; crawlSeconds: number }> {
  if (server.apiKey === null) throw new Error('a fresh server printed no API key');
  const call = apiClient(server.url, server.apiKey);
  const sites = manuals.map((manual) => ({ manual, site: new ManualSite(manual.root) }));
  const origins: Record<string, string> = {};
  const runIds: string[] = [];
  const started = performance.now();
  try {
    for (const { manual, site } of sites) origins[manual.name] = await site.start();
    // Both crawls run at once, as two users' crawls would.
    for (const { manual, site } of sites) {
      const created = await call('POST', '/api/v1/deep-crawl', {
        url: `${site.url}/${manual.start}`,
        max_depth: 50,
        limit: 5000,
        formats: ['text'],
        collection: COLLECTION,
        ...(manual.excludePaths ? { exclude_paths: manual.excludePaths } : {}),
      });
      if (created.status !== 202) throw new Error(`deep crawl refused: ${JSON.stringify(created.body)}`);
      runIds.push(created.body.id);
    }
    for (const runId of runIds) {
      const run = await waitForRun(call, runId, CRAWL_DEADLINE_MS);
      log(`crawl ${runId}: ${run.status}, ${run.stats.succeeded} pages, ${run.stats.failed} failed`);
    }
  } finally {
    for (const { site } of sites) await site.stop();
  }
  const crawlSeconds = (performance.now() - started) / 1000;
  const documents: CrawledDocument[] = [];
  for (const runId of runIds) documents.push(...(await documentsOf(call, runId)));
  return { origins, documents, crawlSeconds };
}

/** Every succeeded page of a run with its text, read through the results API. */
async function documentsOf(call: ApiCall, runId: string): Promise<CrawledDocument[]> {
  const documents: CrawledDocument[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = await call('GET', `/api/v1/runs/${runId}/results?limit=200${query}`);
    if (page.status !== 200) throw new Error(`results: ${JSON.stringify(page.body)}`);
    for (const result of page.body.data) {
      if (result.status !== 'succeeded') continue;
      const content = await call('GET', `/api/v1/runs/${runId}/results/${result.id}/content?format=text`);
      if (content.status !== 200) continue;
      documents.push({
        url: result.final_url ?? result.url,
        title: result.title ?? '',
        text: content.body.content,
      });
    }
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return documents;
}
