import type { Database, Statement } from 'better-sqlite3';
import { LEAD_CHARACTERS } from '../../../search/rerank.js';
import { ANALYZED_CHARACTERS } from '../../../search/text-scans.js';
import { FlooredPhrases } from './floored-phrases.js';
import { FtsMirror, type FtsMirrorOptions, scratchChangesOn } from './fts-mirror.js';

/** A document row as the search index writes it. */
export interface SearchDocumentRow {
  id: string;
  owner: string;
  collection: string;
  url: string;
  /** Host of the URL with its port when not the default (`docs.example:8080`). */
  site: string;
  title: string | null;
  /** Headings joined with newlines. */
  headings: string;
  body: string;
  /** The page's summary (`summaryOf` its body's opening), indexed with the title and headings. */
  summary: string;
  indexedAt: string;
}

/** A chunk as stored: its text and its vector's float32 bytes. */
export interface StoredChunk {
  text: string;
  vector: Buffer;
}

/** Column weights of `bm25()`: title, headings, body. */
export interface Bm25Weights {
  title: number;
  headings: number;
  body: number;
}

/** What the best lexical matches are asked for. */
export interface MatchQuery {
  owner: string;
  collection: string;
  /** A complete, already escaped FTS5 MATCH expression. */
  match: string;
  /** Prefix the URL must start with (matched literally and case-sensitively). */
  urlPrefix?: string | undefined;
  /** Host (with non-default port) the URL must have. */
  site?: string | undefined;
  weights: Bm25Weights;
  limit: number;
  /**
   * `body`: `search_fts` (title, headings, body; the default). `fields`: `search_fields_fts`, the
   * small fields (title, headings, summary), `weights.body` then weighing the summary.
   */
  index?: 'body' | 'fields';
}

/** One lexical match: the document's row number and its weighted bm25 score (higher is better). */
export interface MatchRow {
  seq: number;
  score: number;
}

/** The fields of a matched document that the ranking and the answer read. */
export interface MatchedDocument {
  seq: number;
  id: string;
  url: string;
  title: string | null;
  headings: string;
  /** The body's first {@link LEAD_CHARACTERS} characters. */
  lead: string;
  /** The page's summary as it was indexed (see {@link SearchDocumentRow.summary}). */
  summary: string;
  collection: string;
  indexed_at: string;
}

/** The markers `snippet()` puts around matched words; control characters that indexed text never holds. */
export const SNIPPET_OPEN = '\u0001';
export const SNIPPET_CLOSE = '\u0002';
export const SNIPPET_ELLIPSIS = '\u0003';
/** Tokens of context in a snippet (FTS5 caps it at 64). */
const SNIPPET_TOKENS = 30;

/**
 * All SQL of the collection search index (tables from {@link migrateSearchIndex}).
 * Writes run in one transaction each so the FTS index (kept by triggers)
 * never disagrees with the documents.
 */
export class SearchDocumentStore {
  private readonly db: Database;
  private readonly upsertDocument: Statement;
  private readonly linkRun: Statement;
  private readonly deleteChunks: Statement;
  private readonly insertChunk: Statement;
  private readonly documentsOfRun: Statement;
  private readonly unlinkRun: Statement;
  private readonly deleteOrphan: Statement;
  private readonly collectionsOf: Statement;
  private readonly documentBySeq: Statement;
  private readonly documentsBySeq: Statement;
  private readonly bodiesBySeq: Statement;
  private readonly bodyBytesBySeq: Statement;
  private readonly wordsBySeq: Statement;
  private readonly insertWords: Statement;
  private readonly lastSeq: Statement;
  private readonly seqsWithoutWords: Statement;
  private readonly analyzedBody: Statement;
  private readonly addWordsIfBody: Statement;
  private readonly bodySnippets: Statement;
  private readonly scoresOfRows: Statement;
  private readonly anySnippets: Statement;
  private readonly matchesRow: Statement;
  private readonly countOfMatches: Statement;
  private readonly matchQueries = new Map<string, Statement>();
  private readonly floored: FlooredPhrases;
  private readonly dataVersion: Statement;
  private readonly totalChanges: Statement;
  /** The FTS indexes' copy in memory that answers the first stage when it can (fts-mirror.ts). */
  readonly mirror: FtsMirror;

  /** `mirror`: how the in-memory copy is kept; a budget of 0 bytes (the default here) turns it off. */
  constructor(db: Database, mirror: FtsMirrorOptions = { budgetBytes: 0, delayMs: 0 }) {
    this.db = db;
    this.floored = new FlooredPhrases(db);
    this.mirror = new FtsMirror(db, mirror);
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
    this.totalChanges = db.prepare('SELECT total_changes()').pluck();
    this.upsertDocument = db.prepare(`
      INSERT INTO search_documents (id, owner, collection, url, site, title, headings, body, summary, lead, indexed_at)
      VALUES (@id, @owner, @collection, @url, @site, @title, @headings, @body, @summary,
        substr(@body, 1, ${LEAD_CHARACTERS}), @indexedAt)
      ON CONFLICT (owner, collection, url) DO UPDATE SET
        site = excluded.site, title = excluded.title, headings = excluded.headings,
        body = excluded.body, summary = excluded.summary, lead = excluded.lead, indexed_at = excluded.indexed_at
      RETURNING id, seq`);
    this.deleteChunks = db.prepare('DELETE FROM search_chunks WHERE seq = ?');
    this.insertWords = db.prepare('INSERT OR REPLACE INTO search_words (seq, words) VALUES (?, ?)');
    // The backfill's (see wordIndexlessSeqs): the prefix read is what an index is built from.
    this.lastSeq = db.prepare('SELECT max(seq) AS seq FROM search_documents').pluck();
    this.seqsWithoutWords = db
      .prepare(
        `SELECT seq FROM search_documents d WHERE seq > ? AND seq <= ?
           AND NOT EXISTS (SELECT 1 FROM search_words w WHERE w.seq = d.seq) ORDER BY seq`,
      )
      .pluck();
    this.analyzedBody = db
      .prepare(
        `SELECT substr(body, 1, ${ANALYZED_CHARACTERS}) FROM search_documents d WHERE seq = ?
           AND NOT EXISTS (SELECT 1 FROM search_words w WHERE w.seq = d.seq)`,
      )
      .pluck();
    this.addWordsIfBody = db.prepare(
      `INSERT OR IGNORE INTO search_words (seq, words)
         SELECT seq, @words FROM search_documents WHERE seq = @seq AND substr(body, 1, ${ANALYZED_CHARACTERS}) = @analyzed`,
    );
    this.wordsBySeq = db.prepare(
      'SELECT seq, words FROM search_words WHERE seq IN (SELECT value FROM json_each(?))',
    );
    this.insertChunk = db.prepare('INSERT INTO search_chunks (seq, n, text, vector) VALUES (?, ?, ?, ?)');
    this.linkRun = db.prepare(
      'INSERT OR IGNORE INTO search_document_runs (document_id, run_id) VALUES (?, ?)',
    );
    this.documentsOfRun = db.prepare('SELECT document_id FROM search_document_runs WHERE run_id = ?').pluck();
    this.unlinkRun = db.prepare('DELETE FROM search_document_runs WHERE run_id = ?');
    this.deleteOrphan = db.prepare(`
      DELETE FROM search_documents WHERE id = ?
        AND NOT EXISTS (SELECT 1 FROM search_document_runs WHERE document_id = ?)`);
    this.collectionsOf = db.prepare(`
      SELECT collection AS name, COUNT(*) AS document_count, MAX(indexed_at) AS updated_at
      FROM search_documents WHERE owner = ? GROUP BY collection ORDER BY collection`);
    // The lead as indexed (a row from before the column: cut from the body, which is then read whole).
    const documentColumns = `seq, id, url, title, headings, coalesce(lead, substr(body, 1, ${LEAD_CHARACTERS})) AS lead, summary, collection, indexed_at`;
    this.documentBySeq = db.prepare(`SELECT ${documentColumns} FROM search_documents WHERE seq = ?`);
    this.documentsBySeq = db.prepare(
      `SELECT ${documentColumns} FROM search_documents WHERE seq IN (SELECT value FROM json_each(?))`,
    );
    // What the search analyses of a body, and one character more to tell it goes on (text-scans.ts):
    // a 9 MB body is not made into a string of the main thread's heap for a search.
    this.bodiesBySeq = db.prepare(
      `SELECT seq, substr(body, 1, ${ANALYZED_CHARACTERS + 1}) AS body FROM search_documents
       WHERE seq IN (SELECT value FROM json_each(?))`,
    );
    this.bodyBytesBySeq = db.prepare(
      // A body of at most that many bytes is not cut (octet_length reads no content; substr walks it).
      `SELECT seq, CAST(CASE WHEN octet_length(body) <= ${ANALYZED_CHARACTERS + 1} THEN body
         ELSE substr(body, 1, ${ANALYZED_CHARACTERS + 1}) END AS BLOB) AS body FROM search_documents
       WHERE seq IN (SELECT value FROM json_each(?))`,
    );
    // CAST: a JS number binds as a REAL, and FTS5 then ignores the rowid constraint (it answered
    // with another document's row: the snippet of the wrong page).
    this.matchesRow = db.prepare(
      'SELECT 1 FROM search_fts WHERE search_fts MATCH ? AND rowid = CAST(? AS INTEGER)',
    );
    // No bm25(): before its first row it counts every phrase's documents (a walk of each one's postings).
    this.countOfMatches = db
      .prepare('SELECT count(*) FROM (SELECT 1 FROM search_fts WHERE search_fts MATCH ? LIMIT ?)')
      .pluck();
    const snippet = (column: number) =>
      `snippet(search_fts, ${column}, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}', '${SNIPPET_ELLIPSIS}', ${SNIPPET_TOKENS})`;
    // The rows of one answer in one statement: FTS5 sets the expression up once (for a prefix
    // word, a merge of every matching term's postings: ~10 ms on 100,000 pages), then walks the
    // rows between the first and last seq. `+rowid` keeps the IN list out of FTS5's plan: as
    // equality look-ups it would set the expression up again for every row.
    const ofRows = `FROM search_fts WHERE search_fts MATCH ?
      AND rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)
      AND +rowid IN (SELECT value FROM json_each(?))`;
    this.scoresOfRows = db.prepare(`SELECT rowid AS seq, -bm25(search_fts, ?, ?, ?) AS score ${ofRows}`);
    this.bodySnippets = db.prepare(`SELECT rowid AS seq, ${snippet(2)} AS text ${ofRows}`);
    this.anySnippets = db.prepare(`SELECT rowid AS seq, ${snippet(-1)} AS text ${ofRows}`);
  }

  /**
   * Inserts the document of (owner, collection, url) or replaces its content,
   * and records that `runId` indexed it. Returns the document's id (the id of
   * a replaced document is kept).
   */
  upsert(
    row: SearchDocumentRow,
    runId: string,
    chunks: readonly StoredChunk[] = [],
    words: Uint8Array | null = null,
  ): string {
    // Inside the caller's transaction (a batch of finished pages) without a savepoint of its own: FTS5
    // writes its pending terms out as a new segment at every savepoint, so one per document would undo
    // the batch's single segment (and grow the merge work with it).
    if (this.db.inTransaction) return this.writeDocument(row, runId, chunks, words);
    return this.db.transaction(() => this.writeDocument(row, runId, chunks, words))();
  }

  /** {@link upsert}'s statements (a method, not a closure made for every page: see the converter's). */
  private writeDocument(
    row: SearchDocumentRow,
    runId: string,
    chunks: readonly StoredChunk[],
    words: Uint8Array | null,
  ): string {
    this.mirror.noteWrite();
    const { id, seq } = this.upsertDocument.get(row) as { id: string; seq: number };
    // The body's word index (its old one went with the old body: see the schema's trigger).
    if (words !== null) this.insertWords.run(seq, words);
    this.floored.noteWrites(1);
    // The chunks of the earlier content are stale whether or not this content was embedded.
    this.deleteChunks.run(seq);
    for (let n = 0; n < chunks.length; n += 1)
      this.insertChunk.run(seq, n, chunks[n]!.text, chunks[n]!.vector);
    this.linkRun.run(id, runId);
    return id;
  }

  /** The embedded chunks of the owner's collection (filters as {@link findMatches}). */
  *chunks(
    query: Omit<MatchQuery, 'match' | 'weights' | 'limit'>,
  ): Generator<{ seq: number; text: string; vector: Buffer }> {
    const params: unknown[] = [query.owner, query.collection];
    if (query.urlPrefix !== undefined) params.push(query.urlPrefix);
    if (query.site !== undefined) params.push(query.site);
    const statement = this.cachedStatement(`
      SELECT c.seq AS seq, c.text AS text, c.vector AS vector
      FROM search_documents d JOIN search_chunks c ON c.seq = d.seq
      WHERE d.owner = ? AND d.collection = ?${filterSql(query)}`);
    yield* statement.iterate(...params) as Iterable<{ seq: number; text: string; vector: Buffer }>;
  }

  /** Unlinks a run and deletes the documents no other run indexed. Returns how many were deleted. */
  removeRun(runId: string): number {
    return this.db.transaction(() => {
      const ids = this.documentsOfRun.all(runId) as string[];
      this.unlinkRun.run(runId);
      let deleted = 0;
      for (const id of ids) deleted += this.deleteOrphan.run(id, id).changes;
      this.floored.noteWrites(deleted);
      if (deleted > 0) this.mirror.noteWrite();
      return deleted;
    })();
  }

  /**
   * The best `limit` matches by weighted bm25, best first (ties broken by insertion order).
   *
   * Scored in two steps, with the same answer as one join (see the test beside this file): the
   * FTS index alone ranks its best {@link OVERFETCH}×`limit` rows, and only those are looked up
   * for owner, collection and filters. When that leaves fewer than `limit` rows while the FTS
   * index had more, the documents of the collection are scored with the join (every matching
   * row looked up: half of the time of a large query, so only when the collection is a small
   * part of the index). The first `limit` survivors are the collection's best: any of its rows
   * outside the fetched ones comes after all of them in the same (score, seq) order.
   */
  findMatches(query: MatchQuery): MatchRow[] {
    const mirrored = this.mirror.findMatches(query);
    if (mirrored !== null) return mirrored;
    const filters = filterArgs(query);
    const fetched = query.limit * OVERFETCH;
    const best = this.matchStatement(query, 'ranked-first').all(
      query.match,
      fetched,
      ...filters,
      query.limit,
    ) as (MatchRow & { ranked: number })[];
    // No row left says nothing of how many the FTS index ranked: the join decides then too.
    const ranked = best[0]?.ranked ?? fetched;
    if (best.length >= query.limit || ranked < fetched) return best.map(matchRow);
    return this.matchStatement(query, 'joined').all(query.match, ...filters, query.limit) as MatchRow[];
  }

  /**
   * {@link findMatches}, and the score of each of the documents `seqs` that the FTS index ranked
   * among its best `askedDepth` (at least {@link OVERFETCH}×`limit`; before the filters), as
   * {@link scoresOf} gives it: such a page needs no second walk of the expression for its score (on
   * 100,000 pages a walk with bm25() costs 5 to 20 ms). A page of `seqs` outside them is not in the map.
   */
  findMatchesScoring(
    query: MatchQuery,
    seqs: readonly number[],
    askedDepth: number = ASKED_DEPTH,
  ): { rows: MatchRow[]; scores: Map<number, number> } {
    if (seqs.length === 0) return { rows: this.findMatches(query), scores: new Map() };
    const mirrored = this.mirror.findMatchesScoring(query, seqs);
    if (mirrored !== null) return mirrored;
    const filters = filterArgs(query);
    const fetched = query.limit * OVERFETCH;
    const found = this.matchStatement(query, 'ranked-asked').all(
      query.match,
      Math.max(fetched, askedDepth),
      fetched,
      ...filters,
      query.limit,
      JSON.stringify(seqs),
    ) as (MatchRow & { ranked: number | null })[];
    const scores = new Map<number, number>();
    const best: MatchRow[] = [];
    for (const row of found) {
      if (row.ranked === null) scores.set(row.seq, row.score);
      else best.push(matchRow(row));
    }
    best.sort(byScoreThenSeq);
    // As in findMatches: no row left says nothing of how many the FTS index ranked.
    const ranked = found.find((row) => row.ranked !== null)?.ranked ?? fetched;
    if (best.length >= query.limit || ranked < fetched) return { rows: best, scores };
    const rows = this.matchStatement(query, 'joined').all(query.match, ...filters, query.limit) as MatchRow[];
    return { rows, scores };
  }

  /**
   * How many documents of the whole index match `match`, counted up to `atMost` (the walk stops
   * there; no filter applies): without bm25, much cheaper than {@link findMatches}, and enough to
   * tell that fewer than `atMost` of the collection's documents match.
   */
  countMatches(match: string, atMost: number): number {
    const mirrored = this.mirror.countMatches(match, atMost);
    if (mirrored !== null) return mirrored;
    return this.countOfMatches.get(match, atMost) as number;
  }

  /**
   * The weighted bm25 score on `search_fts` (as {@link findMatches} gives it) of each of the
   * documents `seqs` that match `match`, in one statement.
   */
  scoresOf(match: string, seqs: readonly number[], weights: Bm25Weights): Map<number, number> {
    const scores = new Map<number, number>();
    if (seqs.length === 0) return scores;
    const mirrored = this.mirror.scoresOf(match, seqs, weights);
    if (mirrored !== null) return mirrored;
    const rows = this.scoresOfRows.all(
      weights.title,
      weights.headings,
      weights.body,
      match,
      Math.min(...seqs),
      Math.max(...seqs),
      JSON.stringify(seqs),
    ) as MatchRow[];
    for (const row of rows) scores.set(row.seq, row.score);
    return scores;
  }

  /**
   * For one query: a test of whether a phrase (one quoted FTS5 string) is held by at least half of
   * the index's documents, so that `bm25()` gives it its idf floor (see {@link FlooredPhrases}).
   */
  flooredPhrases(): (phrase: string) => boolean {
    return this.floored.tester();
  }

  /** Which of the documents `seqs` match the FTS5 expression `match` (one indexed look-up per document). */
  matchingOf(match: string, seqs: readonly number[]): Set<number> {
    const held = new Set<number>();
    for (const seq of seqs) if (this.matchesRow.get(match, seq) !== undefined) held.add(seq);
    return held;
  }

  /** The document of row `seq` (undefined when it was deleted meanwhile). */
  document(seq: number): MatchedDocument | undefined {
    return this.documentBySeq.get(seq) as MatchedDocument | undefined;
  }

  /**
   * The documents of rows `seqs`, in one statement (a look-up each costs a statement's round trip
   * a hundred times a query). A row deleted meanwhile maps to undefined.
   */
  documents(seqs: readonly number[]): Map<number, MatchedDocument | undefined> {
    const found = new Map<number, MatchedDocument | undefined>(seqs.map((seq) => [seq, undefined]));
    if (seqs.length === 0) return found;
    for (const doc of this.documentsBySeq.all(JSON.stringify(seqs)) as MatchedDocument[])
      found.set(doc.seq, doc);
    return found;
  }

  /**
   * The bodies of the rows `seqs` as the search reads them: at most their first
   * {@link ANALYZED_CHARACTERS} + 1 characters (one statement; a row deleted meanwhile is left out).
   */
  bodies(seqs: readonly number[]): Map<number, string> {
    const found = new Map<number, string>();
    if (seqs.length === 0) return found;
    for (const row of this.bodiesBySeq.all(JSON.stringify(seqs)) as { seq: number; body: string }[])
      found.set(row.seq, row.body);
    return found;
  }

  /**
   * {@link bodies} as their UTF-8 bytes (search/utf8-text.ts): what a snippet reads of a long
   * body whose text it mostly needs not (made into a string, a long body costs more than the rest of
   * its snippet).
   */
  bodyBytes(seqs: readonly number[]): Map<number, Buffer> {
    const found = new Map<number, Buffer>();
    if (seqs.length === 0) return found;
    for (const row of this.bodyBytesBySeq.all(JSON.stringify(seqs)) as { seq: number; body: Buffer }[])
      found.set(row.seq, row.body);
    return found;
  }

  /**
   * The word indexes (search/word-index.ts) of those of the rows `seqs` that have one, in one
   * statement: a row indexed before they were, or whose body has none, is left out.
   */
  wordIndexes(seqs: readonly number[]): Map<number, Uint8Array> {
    const found = new Map<number, Uint8Array>();
    if (seqs.length === 0) return found;
    for (const row of this.wordsBySeq.all(JSON.stringify(seqs)) as { seq: number; words: Uint8Array }[])
      found.set(row.seq, row.words);
    return found;
  }

  /** The highest `seq` of the documents, or null when there is none. */
  lastDocumentSeq(): number | null {
    return (this.lastSeq.get() as number | null) ?? null;
  }

  /** The documents with `after < seq <= upTo` that have no word index, in `seq` order. */
  wordIndexlessSeqs(after: number, upTo: number): number[] {
    return this.seqsWithoutWords.all(after, upTo) as number[];
  }

  /**
   * The first `ANALYZED_CHARACTERS` characters of document `seq`'s body (all a word index is built
   * from), or null when it is gone or has a word index.
   */
  wordIndexlessBody(seq: number): string | null {
    return (this.analyzedBody.get(seq) as string | undefined) ?? null;
  }

  /**
   * Stores `words` as document `seq`'s word index if it has none and its body still begins with
   * `analyzed` (its first `ANALYZED_CHARACTERS` characters as read): an index is never given to a
   * body it was not built from. True when written.
   */
  addWordIndexIfBody(seq: number, analyzed: string, words: Uint8Array): boolean {
    return this.addWordsIfBody.run({ seq, words, analyzed }).changes === 1;
  }

  /**
   * The version of the database as this connection reads it now: the rows this connection changed
   * (`total_changes()`: any table, by any statement, this store's or not, triggers included; less
   * the search's own scratch rows, see {@link scratchChanges}) and other connections' commits
   * (`PRAGMA data_version`). Read inside a search's snapshot, it names what every read of the
   * search sees: a page read at the same version is the same (search/page-cache.ts).
   */
  version(): string {
    const own = (this.totalChanges.get() as number) - scratchChangesOn(this.db).count;
    return `${own} ${this.dataVersion.get() as number}`;
  }

  /**
   * For each of the documents `seqs` that match `match`: FTS5's snippet of the body around the
   * match, or of the best column when the body has no match. Documents that do not match are left
   * out. The search builds its snippets from the text (search/snippet.ts) and asks this only for
   * pages where that finds no word (Porter's stems reach further).
   */
  snippets(match: string, seqs: readonly number[]): Map<number, string> {
    // The body's snippet reads best; only when the title or headings alone matched is the matching
    // column's read (each snippet tokenizes its column: on a long page that is the cost of a search).
    const bodies = new Map<number, string>();
    const elsewhere: number[] = [];
    for (const row of this.snippetRows(this.bodySnippets, match, seqs)) {
      const text = row.text ?? '';
      bodies.set(row.seq, text);
      if (!text.includes(SNIPPET_OPEN)) elsewhere.push(row.seq);
    }
    for (const row of this.snippetRows(this.anySnippets, match, elsewhere))
      bodies.set(row.seq, row.text ?? '');
    return bodies;
  }

  /** The owner's collections with their document counts and last indexing time. */
  collections(owner: string): { name: string; document_count: number; updated_at: string | null }[] {
    return this.collectionsOf.all(owner) as {
      name: string;
      document_count: number;
      updated_at: string | null;
    }[];
  }

  /** A snippet statement's rows for `seqs`. */
  private snippetRows(
    statement: Statement,
    match: string,
    seqs: readonly number[],
  ): { seq: number; text: string | null }[] {
    if (seqs.length === 0) return [];
    return statement.all(match, Math.min(...seqs), Math.max(...seqs), JSON.stringify(seqs)) as {
      seq: number;
      text: string | null;
    }[];
  }

  /**
   * `ranked-first`: the FTS index's best rows (bound: match, how many), then the filters (bound
   * next) on those only; `ranked` is how many rows the FTS index gave. `ranked-asked`: the FTS
   * index's best rows (bound: match, how many, at least as many as ranked), the same as
   * `ranked-first` on the first of them (bound: how many ranked, then as `ranked-first`), then
   * (`ranked` null) those of all of them that are among the asked ones (bound last, a JSON array
   * of row ids). `joined`: every matching row
   * filtered, then ranked.
   */
  private matchStatement(query: MatchQuery, plan: 'ranked-first' | 'ranked-asked' | 'joined'): Statement {
    const { title, headings, body } = query.weights;
    const weights = [title, headings, body].map((w) => Number(w).toString()).join(', ');
    const fts = query.index === 'fields' ? 'search_fields_fts' : 'search_fts';
    const score = `-bm25(${fts}, ${weights})`;
    const filters = `d.owner = ? AND d.collection = ?${filterSql(query)}`;
    // Only the rowid and score go through the sort: columns and snippets are read for the returned rows.
    const sql =
      plan === 'ranked-asked'
        ? `
      WITH scored AS MATERIALIZED (
        SELECT rowid AS seq, ${score} AS score FROM ${fts} WHERE ${fts} MATCH ?
        ORDER BY score DESC, seq LIMIT ?
      ),
      best AS MATERIALIZED (SELECT seq, score FROM scored ORDER BY score DESC, seq LIMIT ?)
      SELECT * FROM (
        SELECT d.seq AS seq, best.score AS score, (SELECT count(*) FROM best) AS ranked
        FROM best CROSS JOIN search_documents d ON d.seq = best.seq
        WHERE ${filters}
        ORDER BY best.score DESC, best.seq
        LIMIT ?
      )
      UNION ALL
      SELECT seq, score, NULL AS ranked FROM scored WHERE seq IN (SELECT value FROM json_each(?))`
        : plan === 'joined'
          ? `
      SELECT d.seq AS seq, ${score} AS score
      FROM ${fts} JOIN search_documents d ON d.seq = ${fts}.rowid
      WHERE ${fts} MATCH ? AND ${filters}
      ORDER BY score DESC, d.seq
      LIMIT ?`
          : `
      WITH best AS MATERIALIZED (
        SELECT rowid AS seq, ${score} AS score FROM ${fts} WHERE ${fts} MATCH ?
        ORDER BY score DESC, seq LIMIT ?
      )
      -- CROSS JOIN keeps this order: the planner otherwise walks the whole collection's index.
      SELECT d.seq AS seq, best.score AS score, (SELECT count(*) FROM best) AS ranked
      FROM best CROSS JOIN search_documents d ON d.seq = best.seq
      WHERE ${filters}
      ORDER BY best.score DESC, best.seq
      LIMIT ?`;
    return this.cachedStatement(sql);
  }

  private cachedStatement(sql: string): Statement {
    let statement = this.matchQueries.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      // The shapes vary only with the number of boosts and filters; a small cache is enough.
      if (this.matchQueries.size > 64) this.matchQueries.clear();
      this.matchQueries.set(sql, statement);
    }
    return statement;
  }
}

/** How many times the asked number of rows the FTS index ranks before the collection's filters. */
const OVERFETCH = 4;

/**
 * How many of the FTS index's best rows {@link SearchDocumentStore.findMatchesScoring} gives the
 * asked pages' scores from, past the 4 × limit ranked for the answer: a small-field page the
 * body ranks below those otherwise needs a walk of its own ({@link SearchDocumentStore.scoresOf}:
 * 5 to 10 ms on 100,000 pages), while keeping 1,000 rows instead of 400 costs ~0.6 ms (measured
 * on the latency bench, see src/search/README.md).
 */
export const ASKED_DEPTH = 1000;

/** Best score first, then insertion order: the order of every match statement. */
function byScoreThenSeq(a: MatchRow, b: MatchRow): number {
  return b.score - a.score || a.seq - b.seq;
}

function matchRow(row: MatchRow): MatchRow {
  return { seq: row.seq, score: row.score };
}

/** The values bound to the owner, collection and {@link filterSql} placeholders, in their order. */
function filterArgs(query: MatchQuery): unknown[] {
  const args: unknown[] = [query.owner, query.collection];
  if (query.urlPrefix !== undefined) args.push(query.urlPrefix);
  if (query.site !== undefined) args.push(query.site);
  return args;
}

function filterSql(query: { urlPrefix?: string | undefined; site?: string | undefined }): string {
  let sql = '';
  // instr() = 1 is a literal, case-sensitive prefix test: no LIKE wildcards or ASCII case folding to escape.
  if (query.urlPrefix !== undefined) sql += ' AND instr(d.url, ?) = 1';
  if (query.site !== undefined) sql += ' AND d.site = ?';
  return sql;
}
