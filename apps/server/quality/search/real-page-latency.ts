import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { convertPage } from '../../src/content/index.js';
import { SqliteSearchIndex } from '../../src/search/sqlite-search-index.js';
import type { IndexedDocument } from '../../src/search/types.js';
import type { Manual } from './manuals.js';
import { percentile } from './metrics.js';
import { DEV_SETS, loadQuestions, type QuestionSet, REAL_PAGE_LATENCY_SETS } from './question-sets.js';

/**
 * Pages outside these sizes are left out: below, Texinfo's redirect stubs
 * (no crawl reaches them); above, link-only indexes such as Python's 2.5 MB
 * table of contents, which the quality crawls exclude too.
 */
const PAGE_BYTES = { min: 2_000, max: 600_000 } as const;

/** A converted page, indexed into the bench's collection under one or more URLs. */
export type RealPage = Omit<IndexedDocument, 'owner' | 'collection' | 'runId'>;

/** Search latency over real pages at one collection size. */
export interface RealPageLatency {
  documents: number;
  /** Different pages among them; the rest are copies under URLs of their own. */
  distinctPages: number;
  queries: number;
  /** Each question asked for the first time (the index has seen only other questions before it). */
  p50Ms: number;
  p95Ms: number;
  /** Plain FTS5 asked the same questions' words (OR-ed, bm25, top 10 row ids) of the same index, same run. */
  plainFts5P50Ms: number;
  plainFts5P95Ms: number;
  /**
   * The same questions asked again at once: what the search keeps across searches (phrases'
   * matches, pages read, `page-cache.ts`) is then all there, so this is the best case, not the
   * typical one; beside plain FTS5 asked again too.
   */
  again: { p50Ms: number; p95Ms: number; plainFts5P50Ms: number; plainFts5P95Ms: number };
  /**
   * The first stage's in-memory copy (store/sqlite/search/fts-mirror.ts), built before the
   * questions are asked: its bytes, build time and longest slice of the event loop; null when it
   * was not built (turned off, or over its budget), and the questions were answered by FTS5.
   */
  mirror: { bytes: number; buildMs: number; longestSliceMs: number } | null;
}

/**
 * The dev manuals' pages as the crawl pipeline indexes them: each HTML file
 * of the manuals (within {@link PAGE_BYTES}) converted by the server's own
 * converter (title, headings, main text).
 */
export function realPages(manuals: readonly Manual[]): RealPage[] {
  const pages: RealPage[] = [];
  for (const manual of manuals) {
    for (const file of htmlFiles(manual.root)) {
      const bytes = statSync(file).size;
      if (bytes < PAGE_BYTES.min || bytes > PAGE_BYTES.max) continue;
      const url = `https://${manual.name}.example/${relative(manual.root, file)}`;
      const page = convertPage(readFileSync(file, 'utf8'), url, { html: false });
      if (page.text.trim() === '') continue;
      pages.push({ url, title: page.title, headings: page.headings, body: page.text });
    }
  }
  return pages;
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.html'))
    .map((name) => join(dir, name))
    .sort();
}

/**
 * Measures search latency on real documentation, beside the synthetic
 * bench: the given pages indexed (in-memory SQLite) until the collection
 * holds `size` documents (a page repeated under URLs of its own when the
 * manuals hold fewer), then every dev question of the dev sets, as typed,
 * asked twice; the second round is timed, beside plain FTS5 on the same
 * index. Real pages are long (Python's average 90 KB of HTML) and the
 * questions hold several common words, so both rankers do far more work
 * per query than on the synthetic collections.
 */
/**
 * A search index in `db` of `size` documents: `pages` in turn, repeated with `?copy=N` URLs until
 * there are `size`, in one collection of one owner (the latency bench's collection).
 */
export function indexRealPages(
  db: Database.Database,
  pages: readonly RealPage[],
  size: number,
): SqliteSearchIndex {
  const index = new SqliteSearchIndex(db);
  db.transaction(() => {
    for (let i = 0; i < size; i += 1) {
      const page = pages[i % pages.length]!;
      const copy = Math.floor(i / pages.length);
      index.upsert({
        ...page,
        url: copy === 0 ? page.url : `${page.url}?copy=${copy}`,
        owner: 'bench',
        collection: 'real',
        runId: `run_${i % 10}`,
      });
    }
  })();
  return index;
}

export async function benchRealPages(
  pages: readonly RealPage[],
  sizes: readonly number[],
): Promise<RealPageLatency[]> {
  if (pages.length === 0) throw new Error('no real pages to index');
  const devQuestionsOf = (sets: readonly QuestionSet[]) =>
    sets
      .flatMap((set) => loadQuestions(set))
      .filter((q) => q.split === 'dev')
      .map((q) => q.question);
  const questions = devQuestionsOf(REAL_PAGE_LATENCY_SETS);
  // Asked first, untimed: the code paths and statements warm, as in a server that has answered
  // other people's questions, while the timed questions are each new to the index (what it keeps
  // across searches holds only what these warm-up questions share with them).
  const warmUp = devQuestionsOf(DEV_SETS.filter((set) => !REAL_PAGE_LATENCY_SETS.includes(set)));
  const figures: RealPageLatency[] = [];
  for (const size of sizes) {
    const db = new Database(':memory:');
    try {
      const index = indexRealPages(db, pages, size);
      // As a server answers once its copy is built in the background (FTS5 answers until then).
      const mirrored = await index.mirrorReady();
      const build = index.mirrorBuild();
      const plain = db.prepare(
        'SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY bm25(search_fts) LIMIT 10',
      );
      const round = (asked: readonly string[]) => {
        const ours: number[] = [];
        const baseline: number[] = [];
        for (const question of asked) {
          const t0 = performance.now();
          index.search('bench', { query: question, collection: 'real', limit: 10 });
          const t1 = performance.now();
          const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
          if (words.length > 0) plain.all(words.map((w) => `"${w}"`).join(' OR '));
          ours.push(t1 - t0);
          baseline.push(performance.now() - t1);
        }
        return {
          p50Ms: roundedPercentile(ours, 0.5),
          p95Ms: roundedPercentile(ours, 0.95),
          plainFts5P50Ms: roundedPercentile(baseline, 0.5),
          plainFts5P95Ms: roundedPercentile(baseline, 0.95),
        };
      };
      round(warmUp.length > 0 ? warmUp : questions);
      const first = warmUp.length > 0 ? round(questions) : null;
      const again = round(questions);
      index.close();
      figures.push({
        documents: size,
        distinctPages: Math.min(size, pages.length),
        queries: questions.length,
        // Without other dev questions to warm up on, the first round warmed up and only the repeat is measured.
        ...(first ?? again),
        again,
        mirror:
          mirrored && build !== null
            ? { bytes: build.bytes, buildMs: build.ms, longestSliceMs: build.longestSliceMs }
            : null,
      });
    } finally {
      db.close();
    }
  }
  return figures;
}

function roundedPercentile(values: number[], p: number): number {
  return Math.round(percentile(values, p) * 100) / 100;
}
