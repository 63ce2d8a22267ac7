import Database from 'better-sqlite3';
import { SqliteSearchIndex } from '../../src/search/sqlite-search-index.js';
import { seededRandom } from '../../test/seeded-random.js';

/** Latency of the search index at one corpus size. */
export interface SearchBenchFigures {
  documents: number;
  /** Time to generate and index the documents, in milliseconds. */
  indexMs: number;
  queries: number;
  p50Ms: number;
  p95Ms: number;
  /** Queries answered by the OR fallback (no document held all words). */
  fallbackQueries: number;
  /**
   * The same queries' words as plain FTS5 on the same index, same run: every word quoted and
   * OR-ed, `ORDER BY bm25() LIMIT 10`, row ids only (no filters, re-ranking or snippets).
   */
  plainFts5P50Ms: number;
  plainFts5P95Ms: number;
}

// Real words first (the most frequent ranks), then made-up ones for the long tail.
const COMMON_WORDS = `the of and to in is for that with on as by this are be from it or an at which can not
  request cache server client page data query index table time error value file user retry limit crawl
  response header connection database type function stream token search result default config key
  update write read version option method status version process memory update event queue worker`
  .split(/\s+/)
  .filter((w) => w !== '');
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'ta',
  'vo',
  'shi',
  'pe',
  'da',
  'gri',
  'ton',
  'bel',
  'mar',
  'sen',
  'qu',
];
const VOCABULARY_SIZE = 20_000;
const ZIPF_EXPONENT = 1.05;

/**
 * Measures search latency over synthetic collections: for each size, builds
 * an in-memory SQLite index of that many generated documents (words drawn
 * from a Zipf-like distribution over a 20,000-word vocabulary, so a few
 * words are everywhere and most are rare), then runs 200 queries of one to
 * three words, some quoted, some with a word no document has (OR fallback),
 * and reports p50/p95 latency, beside plain FTS5 (the words OR-ed, bm25, top 10)
 * on the same index in the same run. Deterministic (seeded).
 *
 * @example
 * ```ts
 * for (const f of benchSearch([10_000])) console.log(f.documents, f.p50Ms, f.p95Ms);
 * ```
 */
export function benchSearch(docCounts: readonly number[] = [10_000, 100_000]): SearchBenchFigures[] {
  const vocabulary = buildVocabulary();
  const sampleRank = zipfSampler(vocabulary.length);
  return docCounts.map((documents) => {
    const random = seededRandom(documents);
    const word = () => vocabulary[sampleRank(random())] ?? 'x';
    const words = (n: number) => Array.from({ length: n }, word).join(' ');

    const db = new Database(':memory:');
    const index = new SqliteSearchIndex(db);
    const started = performance.now();
    db.transaction(() => {
      for (let i = 0; i < documents; i += 1) {
        index.upsert({
          owner: 'bench',
          collection: 'synthetic',
          url: `https://site${i % 50}.example/page/${i}`,
          title: words(3 + Math.floor(random() * 6)),
          headings: [words(3), words(4)],
          body: words(80 + Math.floor(random() * 120)),
          runId: `run_${i % 10}`,
        });
      }
    })();
    const indexMs = performance.now() - started;

    const queryRandom = seededRandom(documents + 1);
    // Query words come from the middle of the distribution, as real queries rarely consist of "the".
    const queryWord = () => vocabulary[20 + Math.floor(queryRandom() * queryRandom() * 5000)] ?? 'x';
    const latencies: number[] = [];
    const plainLatencies: number[] = [];
    const plain = db.prepare(
      'SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY bm25(search_fts) LIMIT 10',
    );
    let fallbackQueries = 0;
    const queryCount = 200;
    for (let q = 0; q < queryCount; q += 1) {
      const kind = q % 5;
      const parts = Array.from({ length: 1 + (q % 3) }, queryWord);
      if (kind === 3) parts.push('zzqxmissing');
      const text = kind === 4 ? `"${parts.join(' ')}"` : parts.join(' ');
      const t0 = performance.now();
      const answer = index.search('bench', { query: text, collection: 'synthetic', limit: 10 });
      latencies.push(performance.now() - t0);
      if (kind === 3 && answer.data.length > 0) fallbackQueries += 1;
      const t1 = performance.now();
      plain.all(parts.map((p) => `"${p}"`).join(' OR '));
      plainLatencies.push(performance.now() - t1);
    }
    db.close();
    latencies.sort((a, b) => a - b);
    plainLatencies.sort((a, b) => a - b);
    return {
      documents,
      indexMs: Math.round(indexMs),
      queries: queryCount,
      p50Ms: round2(percentile(latencies, 0.5)),
      p95Ms: round2(percentile(latencies, 0.95)),
      fallbackQueries,
      plainFts5P50Ms: round2(percentile(plainLatencies, 0.5)),
      plainFts5P95Ms: round2(percentile(plainLatencies, 0.95)),
    };
  });
}

function buildVocabulary(): string[] {
  const words = new Set(COMMON_WORDS);
  const random = seededRandom(42);
  while (words.size < VOCABULARY_SIZE) {
    const syllables = 2 + Math.floor(random() * 3);
    let w = '';
    for (let s = 0; s < syllables; s += 1) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/** Maps a uniform [0, 1) number to a rank 0..n-1 with probability ∝ 1 / (rank + 1)^s. */
function zipfSampler(n: number): (u: number) => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r += 1) {
    total += 1 / (r + 1) ** ZIPF_EXPONENT;
    cumulative[r] = total;
  }
  return (u) => {
    const target = u * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
