/**
 * Search quality harness: indexes the hand-written corpus with our
 * `SqliteSearchIndex` and with a plain FTS5 baseline in the same run, asks
 * the user-phrased queries of queries.json, and reports hit@1, hit@3 and
 * MRR@10 for both. Run with `npx tsx quality/search/handwritten/run.ts` from apps/server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { SqliteSearchIndex, type SqliteSearchIndexOptions } from '../../../src/search/sqlite-search-index.js';

/** One page of the corpus. */
export interface CorpusPage {
  id: string;
  url: string;
  title: string;
  headings: string[];
  body: string;
}

/** One query and the ids of the pages that answer it. */
export interface QualityQuery {
  query: string;
  relevant: string[];
}

/** Figures of one ranker over the query set. */
export interface QualityFigures {
  /** Share of queries whose first hit is relevant. */
  hitAt1: number;
  /** Share of queries with a relevant page among the first three hits. */
  hitAt3: number;
  /** Mean reciprocal rank of the first relevant hit within the first ten (0 when none). */
  mrrAt10: number;
}

/** What {@link runSearchQuality} measured. */
export interface SearchQualityReport {
  documents: number;
  queries: number;
  /** Our index with its default settings. */
  ours: QualityFigures;
  /** FTS5 `unicode61`, default `bm25()`, plain AND of the words. */
  baseline: QualityFigures;
  /** The same baseline with OR instead of AND, for reference. */
  baselineOr: QualityFigures;
  /** Our index with one feature changed, to show what each contributes. */
  variants: { name: string; figures: QualityFigures }[];
  /** Queries ours does not answer in the top three, for inspection. */
  misses: { query: string; top: string[] }[];
}

const HERE = fileURLToPath(new URL('.', import.meta.url));
const OWNER = 'quality';
const COLLECTION = 'corpus';

/** Reads the corpus (every corpus/*.json) and the queries. */
export function loadQualityData(dir = HERE): { pages: CorpusPage[]; queries: QualityQuery[] } {
  const corpusDir = `${dir}/corpus`;
  const pages = readdirSync(corpusDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => JSON.parse(readFileSync(`${corpusDir}/${name}`, 'utf8')) as CorpusPage[]);
  const queries = JSON.parse(readFileSync(`${dir}/queries.json`, 'utf8')) as QualityQuery[];
  return { pages, queries };
}

/**
 * Measures ranking quality of our index against the plain FTS5 baseline on
 * the corpus, all in in-memory SQLite databases.
 *
 * @example
 * ```ts
 * const { ours, baseline } = runSearchQuality();
 * console.log(ours.mrrAt10, baseline.mrrAt10);
 * ```
 */
export function runSearchQuality(dir = HERE): SearchQualityReport {
  const { pages, queries } = loadQualityData(dir);
  const idOfUrl = new Map(pages.map((page) => [page.url, page.id]));

  const ourRanking = (options: SqliteSearchIndexOptions) => {
    const index = new SqliteSearchIndex(new Database(':memory:'), options);
    for (const page of pages) {
      index.upsert({ owner: OWNER, collection: COLLECTION, runId: 'run_quality', ...page });
    }
    return (query: string) =>
      index
        .search(OWNER, { query, collection: COLLECTION, limit: 10 })
        .data.map((hit) => idOfUrl.get(hit.url) ?? '');
  };

  const ours = ourRanking({});
  const variants = [
    { name: 'no re-ranking', options: { rerankDepth: 0 } },
    { name: 'no stop-word removal', options: { dropStopWords: false } },
    { name: 'no prefix on last word', options: { prefixLastWord: false } },
    { name: 'equal column weights', options: { weights: { title: 1, headings: 1, body: 1 } } },
  ].map(({ name, options }) => ({ name, figures: measure(queries, ourRanking(options)) }));

  const baselineIndex = createBaseline(pages);
  const misses = queries
    .map((q) => ({ query: q.query, relevant: q.relevant, top: ours(q.query).slice(0, 3) }))
    .filter((q) => !q.top.some((id) => q.relevant.includes(id)))
    .map(({ query, top }) => ({ query, top }));

  return {
    documents: pages.length,
    queries: queries.length,
    ours: measure(queries, ours),
    baseline: measure(queries, (q) => baselineIndex(q, 'AND')),
    baselineOr: measure(queries, (q) => baselineIndex(q, 'OR')),
    variants,
    misses,
  };
}

/** The plain FTS5 baseline: unicode61 (no stemming), default bm25() (no column weights), words joined by `op`. */
function createBaseline(pages: CorpusPage[]): (query: string, op: 'AND' | 'OR') => string[] {
  const db = new Database(':memory:');
  db.exec(
    `CREATE VIRTUAL TABLE pages USING fts5(id UNINDEXED, title, headings, body, tokenize = 'unicode61')`,
  );
  const insert = db.prepare('INSERT INTO pages (id, title, headings, body) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const page of pages) insert.run(page.id, page.title, page.headings.join('\n'), page.body);
  })();
  const select = db.prepare('SELECT id FROM pages WHERE pages MATCH ? ORDER BY bm25(pages) LIMIT 10').pluck();
  return (query, op) => {
    const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    if (words.length === 0) return [];
    return select.all(words.map((w) => `"${w}"`).join(` ${op} `)) as string[];
  };
}

function measure(queries: QualityQuery[], rank: (query: string) => string[]): QualityFigures {
  let hitAt1 = 0;
  let hitAt3 = 0;
  let reciprocal = 0;
  for (const { query, relevant } of queries) {
    const ranked = rank(query).slice(0, 10);
    const position = ranked.findIndex((id) => relevant.includes(id));
    if (position === 0) hitAt1 += 1;
    if (position >= 0 && position < 3) hitAt3 += 1;
    if (position >= 0) reciprocal += 1 / (position + 1);
  }
  const n = queries.length;
  return { hitAt1: round(hitAt1 / n), hitAt3: round(hitAt3 / n), mrrAt10: round(reciprocal / n) };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function printReport(report: SearchQualityReport): void {
  const row = (name: string, f: QualityFigures) =>
    `${name.padEnd(34)} ${f.hitAt1.toFixed(3).padStart(6)} ${f.hitAt3.toFixed(3).padStart(6)} ${f.mrrAt10.toFixed(3).padStart(7)}`;
  console.log(`search quality: ${report.documents} documents, ${report.queries} queries`);
  console.log(`${'ranker'.padEnd(34)} ${'hit@1'.padStart(6)} ${'hit@3'.padStart(6)} ${'MRR@10'.padStart(7)}`);
  console.log(row('ours (SqliteSearchIndex)', report.ours));
  console.log(row('baseline (FTS5 plain AND)', report.baseline));
  console.log(row('baseline, OR of the words', report.baselineOr));
  for (const variant of report.variants) console.log(row(`ours, ${variant.name}`, variant.figures));
  if (report.misses.length > 0) {
    console.log('\nqueries without a relevant page in our top 3:');
    for (const miss of report.misses) console.log(`  ${miss.query} → ${miss.top.join(', ') || '(nothing)'}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printReport(runSearchQuality());
}
