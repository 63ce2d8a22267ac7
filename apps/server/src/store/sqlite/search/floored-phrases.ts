import type { Database, Statement } from 'better-sqlite3';

/** A phrase's document count as last counted, with what it was counted against. */
interface Counted {
  /** Documents of the whole index holding the phrase (FTS5's `nHit` for it in `bm25()`). */
  documents: number;
  /** Documents in the index then (FTS5's `N`). */
  total: number;
  /** {@link FlooredPhrases.writes} then. */
  writes: number;
}

/** At most this many phrases are remembered; past it the memo starts again (a bound, not an LRU). */
const MAX_PHRASES = 20_000;

/**
 * Which phrases of `search_fts` get `bm25()`'s idf floor: FTS5 scores a phrase held by `n` of the
 * index's `N` documents with idf `log((N − n + 0.5) / (n + 0.5))`, and with 1e-6 when that is not
 * positive, that is when `2n ≥ N`. Such a phrase adds at most ~2.2e-6 to a score (1e-6 × (k1 + 1))
 * while its postings are the longest a query walks (bm25()'s set-up counts them, and every
 * document holding it is scored), so the ranking statements may leave it out.
 *
 * Each phrase is counted once (`count(*)` of its MATCH, about 0.2 ms on 10,000 real pages) and
 * remembered. The answer stays exact under writes without counting again: each document written
 * or deleted (counted by {@link noteWrites}) moves `n` and `N` by at most one, so `2n − N` by at
 * most 3; a remembered count decides while `|2n − N| ≥ 3 × writes since` (floored) or `> 3 ×
 * writes since` (not floored), and is counted again past that. Another connection's commit (`PRAGMA
 * data_version`) forgets every count.
 */
export class FlooredPhrases {
  private readonly countOf: Statement;
  private readonly totalOf: Statement;
  private readonly dataVersion: Statement;
  private readonly counted = new Map<string, Counted>();
  private writes = 0;
  private seenVersion: number | null = null;

  constructor(db: Database) {
    this.countOf = db.prepare('SELECT count(*) FROM search_fts WHERE search_fts MATCH ?').pluck();
    // The smallest index answers: no body is read.
    this.totalOf = db.prepare('SELECT count(*) FROM search_documents').pluck();
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** Documents were written or deleted through this connection (`n` of them, at most). */
  noteWrites(n: number): void {
    this.writes += n;
  }

  /**
   * A test of whether a phrase (one quoted FTS5 string, `"word"` or `"word"*`) is held by at
   * least half of the index's documents, for one query: call it per query (it checks once for
   * other connections' commits).
   */
  tester(): (phrase: string) => boolean {
    const version = this.dataVersion.get() as number;
    if (version !== this.seenVersion) {
      this.counted.clear();
      this.seenVersion = version;
    }
    let total: number | undefined;
    return (phrase) => {
      const known = this.counted.get(phrase);
      if (known !== undefined) {
        const margin = 2 * known.documents - known.total;
        const drift = 3 * (this.writes - known.writes);
        if (margin >= 0 ? margin >= drift : -margin > drift) return margin >= 0;
      }
      total ??= this.totalOf.get() as number;
      const documents = this.countOf.get(phrase) as number;
      if (this.counted.size >= MAX_PHRASES) this.counted.clear();
      this.counted.set(phrase, { documents, total, writes: this.writes });
      return 2 * documents >= total;
    };
  }
}
