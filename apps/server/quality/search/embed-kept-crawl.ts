/**
 * Gives a kept crawl's pages the embedded chunks a crawl with
 * `WEBDATA_EMBEDDINGS_*` set would have given them (the server's own
 * `chunksOf`, embedded through its own `OpenAiEmbedder`, stored as it stores
 * them), so the semantic path is measured by the dev tools (`dev-cv.ts
 * --embeddings`) and by run.ts on a kept crawl without crawling again: one
 * crawl with embeddings takes a model-second per chunk of every page.
 *
 * `npx tsx --conditions=source quality/search/embed-kept-crawl.ts <SEARCH_QUALITY_DATA_DIR> [--minutes M] [--processes N] [collection…]`
 * from apps/server. It changes the kept crawl in place (copy it first), embeds
 * only pages without chunks (stop it, or let `--minutes` stop it, and run it
 * again to go on), with N local embeddings servers (child processes, one core
 * each; default 1) unless WEBDATA_EMBEDDINGS_BASE_URL names one. Without
 * collections: every collection of the crawl.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { chunksOf, OpenAiEmbedder, vectorToBytes } from '../../src/search/embeddings.js';
import { stripMarkerCharacters } from '../../src/search/marker-characters.js';
import { SENTENCE_ENCODER_MODEL } from './sentence-encoder.js';

/** Pages sent to one embeddings server before the next page's answer is awaited. */
const IN_FLIGHT_PER_SERVER = 2;

/** What {@link embedKeptCrawl} did. */
export interface EmbeddedCrawl {
  pages: number;
  chunks: number;
  seconds: number;
  /** Pages still without chunks (the time ran out). */
  left: number;
}

/**
 * Embeds the chunks of every page of `collections` (all when empty) that has
 * none, through the embeddings servers at `baseUrls` (pages spread over them),
 * until `deadline` (ms since the epoch).
 */
export async function embedKeptCrawl(
  file: string,
  baseUrls: readonly string[],
  options: {
    collections?: readonly string[];
    deadline?: number;
    model?: string;
    log?: (line: string) => void;
  } = {},
): Promise<EmbeddedCrawl> {
  const db = new Database(file);
  const started = performance.now();
  try {
    const collections = options.collections ?? [];
    const pages = db
      .prepare(
        `SELECT seq, title, body FROM search_documents d
         WHERE NOT EXISTS (SELECT 1 FROM search_chunks c WHERE c.seq = d.seq)
         ${collections.length > 0 ? `AND collection IN (${collections.map(() => '?').join(', ')})` : ''}
         ORDER BY seq`,
      )
      .all(...collections) as { seq: number; title: string | null; body: string }[];
    const insert = db.prepare('INSERT INTO search_chunks (seq, n, text, vector) VALUES (?, ?, ?, ?)');
    const embedders = baseUrls.map(
      (baseUrl) =>
        new OpenAiEmbedder({ baseUrl, model: options.model ?? SENTENCE_ENCODER_MODEL, timeoutMs: 600_000 }),
    );
    let next = 0;
    let done = 0;
    let chunks = 0;
    const work = async (embedder: OpenAiEmbedder) => {
      while (next < pages.length && Date.now() < (options.deadline ?? Number.POSITIVE_INFINITY)) {
        const page = pages[next++]!;
        const texts = chunksOf(page.title, page.body);
        const vectors = await embedder.embed(texts);
        db.transaction(() => {
          for (const [n, text] of texts.entries())
            insert.run(page.seq, n, stripMarkerCharacters(text), vectorToBytes(vectors[n]!));
        })();
        done += 1;
        chunks += texts.length;
        if (done % 100 === 0)
          options.log?.(
            `${done} of ${pages.length} pages, ${chunks} chunks, ${((performance.now() - started) / 1000).toFixed(0)} s`,
          );
      }
    };
    await Promise.all(
      embedders.flatMap((embedder) => Array.from({ length: IN_FLIGHT_PER_SERVER }, () => work(embedder))),
    );
    return { pages: done, chunks, seconds: (performance.now() - started) / 1000, left: pages.length - done };
  } finally {
    db.close();
  }
}

/** Starts a local embeddings server as a child process (its own core); resolves with it and its base URL. */
export async function spawnLocalEmbeddings(): Promise<{ child: ChildProcess; url: string }> {
  const file = fileURLToPath(new URL('./local-embeddings-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (part) => {
      out += part;
      const found = /embeddings server at (\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`the embeddings server exited (${code}) before it was ready`)),
    );
  });
  return { child, url };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const [, value] = args.splice(at, 2);
    return value;
  };
  const minutes = Number(option('--minutes') ?? 'Infinity');
  const processes = Number(option('--processes') ?? '1');
  const [dataDir, ...collections] = args;
  if (dataDir === undefined || !(minutes > 0) || !(processes >= 1)) {
    console.error(
      'usage: embed-kept-crawl.ts <SEARCH_QUALITY_DATA_DIR> [--minutes M] [--processes N] [collection…]',
    );
    process.exit(2);
  }
  const given = process.env.WEBDATA_EMBEDDINGS_BASE_URL;
  const children = given ? [] : await Promise.all(Array.from({ length: processes }, spawnLocalEmbeddings));
  try {
    const done = await embedKeptCrawl(
      join(dataDir, 'server', 'webdata.sqlite'),
      given ? [given] : children.map((c) => c.url),
      {
        collections,
        deadline: Date.now() + minutes * 60_000,
        model: given ? process.env.WEBDATA_EMBEDDINGS_MODEL : undefined,
        log: (line) => console.log(line),
      },
    );
    console.log(
      `embedded ${done.chunks} chunks of ${done.pages} pages in ${done.seconds.toFixed(0)} s ` +
        `(${(done.chunks / done.seconds).toFixed(1)} chunks/s, ${processes} process(es)); ${done.left} pages left`,
    );
  } finally {
    for (const { child } of children) child.kill('SIGTERM');
  }
}
