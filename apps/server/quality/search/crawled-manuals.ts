import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiCall, apiClient, waitForRun } from '../../test/api-client.js';
import { exited, spawnServer } from '../../test/server-process.js';
import { embeddingsEnv, startLocalEmbeddings } from './local-embeddings-server.js';
import { ManualSite } from './manual-site.js';
import { PYTHON_GIT_QUESTIONS, QUESTION_SETS, type QuestionSet } from './question-sets.js';

/** A crawl of the manuals takes a few minutes here; past this it is reported as stuck. */
const CRAWL_DEADLINE_MS = 30 * 60_000;

/** One crawled page as the API gives it back (what the baselines index). */
export interface CrawledDocument {
  url: string;
  title: string;
  /** The page's text (`format=text` of its result): the same text our index holds as the body. */
  text: string;
  /** The collection it was crawled into (its question set's). */
  collection: string;
}

/** What the harness keeps in a reused data directory beside the server's own files. */
interface HarnessState {
  apiKey: string;
  /** Origin each manual was served from during the crawl (the judged ids are derived from it). */
  origins: Record<string, string>;
}

/**
 * The collection of the pages a kept crawl wrote before there were several
 * question sets: `harness-documents.json` then held the Python and Git
 * manuals' pages only, without a `collection`.
 */
const COLLECTION_BEFORE_SETS = PYTHON_GIT_QUESTIONS.collection;

/** A running server holding the crawled manuals. */
export interface CrawledManuals {
  call: ApiCall;
  origins: Record<string, string>;
  /** Every crawled page of every set (each with its collection). */
  documents: CrawledDocument[];
  /** Seconds each collection's deep crawls took in this run (0: reused from a kept data directory). */
  crawlSeconds: Record<string, number>;
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
  /**
   * `local`: the server's semantic path on, with a real model: a local
   * embeddings server (`local-embeddings-server.ts`, the Universal Sentence
   * Encoder) is started for the run and named in `WEBDATA_EMBEDDINGS_*`.
   * Every crawled page is then embedded (about a second of one core per
   * 11 chunks; a kept crawl made without it has no chunks: `embed-kept-crawl.ts`).
   */
  embeddings?: 'local' | undefined;
  /** The question sets whose manuals are crawled, each into its own collection (default: all). */
  sets?: readonly QuestionSet[];
  log?: (line: string) => void;
}

/**
 * Starts the real server as a child process and deep-crawls every set's
 * manuals, each served from its own 127.0.0.1 site, into the set's
 * collection through the API, then reads every page's text back through the
 * API. With `dataDir` the crawl is kept and the next run starts the server on
 * it instead of crawling again (ranking changes need no new crawl); a set
 * the kept crawl does not hold yet (one added since) is crawled into it then.
 */
export async function crawlManuals(options: CrawlOptions = {}): Promise<CrawledManuals> {
  const log = options.log ?? (() => {});
  const sets = options.sets ?? QUESTION_SETS;
  const kept = options.dataDir !== undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'webdata-search-quality-'));
  mkdirSync(dataDir, { recursive: true });
  const stateFile = join(dataDir, 'harness-state.json');
  const documentsFile = join(dataDir, 'harness-documents.json');
  const reuse = kept && existsSync(stateFile) && existsSync(documentsFile);
  const serverDir = join(dataDir, 'server');
  if (!reuse) rmSync(serverDir, { recursive: true, force: true });

  const embeddings = options.embeddings === 'local' ? await startLocalEmbeddings() : null;
  const server = await spawnServer(serverDir, ['--allow-private-networks'], {
    built: options.built ?? false,
    env: {
      WEBDATA_RATE_LIMIT: '100000',
      WEBDATA_RATE_BURST: '100000',
      ...(embeddings ? embeddingsEnv(embeddings.url) : {}),
      ...options.env,
    },
  }).catch(async (error: unknown) => {
    await embeddings?.stop();
    throw error;
  });
  const stop = async () => {
    server.child.kill('SIGTERM');
    await exited(server.child);
    await embeddings?.stop();
    if (!kept) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    let state: HarnessState;
    let documents: CrawledDocument[] = [];
    if (reuse) {
      state = JSON.parse(readFileSync(stateFile, 'utf8')) as HarnessState;
      documents = keptDocuments(readFileSync(documentsFile, 'utf8'));
      log(`reusing the crawl kept in ${dataDir} (${documents.length} documents)`);
    } else {
      if (server.apiKey === null) throw new Error('a fresh server printed no API key');
      state = { apiKey: server.apiKey, origins: {} };
    }
    const call = apiClient(server.url, state.apiKey);
    const crawlSeconds: Record<string, number> = {};
    for (const set of sets) crawlSeconds[set.collection] = 0;
    const toCrawl = sets.filter((set) => !documents.some((doc) => doc.collection === set.collection));
    if (toCrawl.length > 0) {
      const crawled = await crawlInto(call, toCrawl, log);
      Object.assign(state.origins, crawled.origins);
      documents.push(...crawled.documents);
      for (const set of toCrawl) crawlSeconds[set.collection] = crawled.crawlSeconds;
      if (kept) {
        writeFileSync(stateFile, JSON.stringify(state));
        writeFileSync(documentsFile, JSON.stringify(documents));
      }
    }
    return { call, origins: state.origins, documents, crawlSeconds, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The pages of a kept crawl's `harness-documents.json`. A file written before
 * there were several question sets has no `collection` on its pages: they
 * are all the Python and Git manuals' (the sets added since are crawled on
 * the next run, into the same server).
 */
export function keptDocuments(json: string): CrawledDocument[] {
  const documents = JSON.parse(json) as (Omit<CrawledDocument, 'collection'> & { collection?: string })[];
  return documents.map((doc) => ({ ...doc, collection: doc.collection ?? COLLECTION_BEFORE_SETS }));
}

async function crawlInto(
  call: ApiCall,
  sets: readonly QuestionSet[],
  log: (line: string) => void,
): Promise<{ origins: Record<string, string>; documents: CrawledDocument[]; crawlSeconds: number }> {
  const sites = sets.flatMap((set) =>
    set.manuals.map((manual) => ({ manual, collection: set.collection, site: new ManualSite(manual.root) })),
  );
  const origins: Record<string, string> = {};
  const runs: { runId: string; collection: string }[] = [];
  const started = performance.now();
  try {
    for (const { manual, site } of sites) origins[manual.name] = await site.start();
    // Every manual's crawl runs at once, as several users' crawls would.
    for (const { manual, collection, site } of sites) {
      const created = await call('POST', '/api/v1/deep-crawl', {
        url: `${site.url}/${manual.start}`,
        max_depth: 50,
        limit: 5000,
        formats: ['text'],
        collection,
        ...(manual.excludePaths ? { exclude_paths: manual.excludePaths } : {}),
      });
      if (created.status !== 202) throw new Error(`deep crawl refused: ${JSON.stringify(created.body)}`);
      runs.push({ runId: created.body.id, collection });
    }
    for (const { runId, collection } of runs) {
      const run = await waitForRun(call, runId, CRAWL_DEADLINE_MS);
      log(
        `crawl ${runId} (${collection}): ${run.status}, ${run.stats.succeeded} pages, ${run.stats.failed} failed`,
      );
    }
  } finally {
    for (const { site } of sites) await site.stop();
  }
  const crawlSeconds = (performance.now() - started) / 1000;
  const documents: CrawledDocument[] = [];
  for (const { runId, collection } of runs) documents.push(...(await documentsOf(call, runId, collection)));
  return { origins, documents, crawlSeconds };
}

/** Every succeeded page of a run with its text, read through the results API. */
async function documentsOf(call: ApiCall, runId: string, collection: string): Promise<CrawledDocument[]> {
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
        collection,
      });
    }
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return documents;
}
