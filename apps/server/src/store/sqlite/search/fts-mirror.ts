import type { Database, Statement } from 'better-sqlite3';
import type { Bm25Weights, MatchQuery, MatchRow } from './search-document-store.js';

/**
 * An in-memory copy of the FTS5 indexes' postings (`search_fts`, `search_fields_fts`), with
 * positions, that answers the first stage's statements (`findMatches`, `findMatchesScoring`,
 * `countMatches`, `scoresOf`) with FTS5's own answers: the same rows, in the same order, with the
 * same `bm25()` scores to the last bit. See src/search/README.md (Execution, "The first stage in
 * memory").
 *
 * - **Read from FTS5 itself**: every token instance through an `fts5vocab` 'instance' table, the
 *   rows' lengths from `%_docsize`, `N` and the total of tokens from the `%_data` averages record;
 *   a query's phrases are tokenised by a scratch FTS5 table with the same tokenizer. Nothing is
 *   tokenised or counted otherwise than FTS5 does.
 * - **Scored as `bm25()` scores**: each phrase's weighted frequency (column weights summed per
 *   instance, integer weights only), its idf `ln((N − n + 0.5) / (n + 0.5))` taken from SQLite's
 *   own `ln()` (the C library's `log`, which V8's `Math.log` may differ from by an ulp), floored
 *   at 1e-6, and the terms added phrase by phrase in the expression's order, as FTS5 adds them.
 * - **Built in the background**: slices of at most ~{@link SLICE_ROWS} instances, a turn of the
 *   event loop between them; FTS5 answers until the copy is complete.
 * - **Never stale**: a copy is used only while no write went through this connection since its
 *   build started ({@link FtsMirror.noteWrite}) and `PRAGMA data_version` (other connections'
 *   commits: the batch write thread, other processes) is the one it was built at. Any write drops
 *   it and a new one is built once writes have paused for {@link FtsMirrorOptions.delayMs}.
 * - **Built for searches, not for writes**: only while searches came in the last
 *   {@link WANTED_FOR_MS}, and a build given up because a write came waits twice as long for the
 *   next pause (at most {@link MAX_DELAY_DOUBLINGS} doublings). A server that only crawls, or that
 *   crawls slowly enough for writes to pause, spends no main-thread time on copies nobody reads:
 *   a build of 10,000 long pages takes 10–16 s of it in slices.
 * - **Bounded**: the bytes it would take are counted from `fts5vocab`'s 'row' table before any
 *   array is allocated; past {@link FtsMirrorOptions.budgetBytes} it is not built (FTS5 answers).
 *
 * Expressions it does not read (anything but quoted phrases, an optional `*` after the closing
 * quote, `AND`, `OR`, `NOT` and parentheses, one operator kind per parenthesised level, a `NOT`
 * whose right side is phrases OR-ed), filters by URL prefix or site, and non-integer weights are
 * answered by FTS5: each method returns null for them.
 */

/** A position: column × {@link COLUMN_SHIFT} + the token's offset in the column. */
const COLUMN_SHIFT = 2 ** 26;
/** An instance read from SQLite: document × {@link DOC_SHIFT} + position (exact below 2^53). */
const DOC_SHIFT = 2 ** 28;
const MAX_DOC = 2 ** 25;
/** A posting's per-column count past this is counted from its positions. */
const SATURATED = 255;
/** Instances read per slice of the build at most (about 5–15 ms of the event loop). */
const SLICE_ROWS = 5_000;
/** A slice of the build ends after this long. */
const SLICE_MS = 10;
const K1 = 1.2;
const B = 0.75;

/** How the copy is kept (see {@link FtsMirror}). */
export interface FtsMirrorOptions {
  /** The copy is not built when it would take more bytes than this; 0 turns it off. */
  budgetBytes: number;
  /** Writes must have paused this long before a copy is built again. */
  delayMs: number;
}

/** A copy is built only while a search came within this long (see {@link FtsMirror}). */
export const WANTED_FOR_MS = 10 * 60_000;
/** Given-up builds double the wait for the next one at most this many times (2 s → 64 s). */
export const MAX_DELAY_DOUBLINGS = 5;

/** 512 MB: about five times what 10,000 long documentation pages take (src/search/README.md). */
export const DEFAULT_MIRROR_BUDGET_BYTES = 512 * 1024 * 1024;
export const DEFAULT_MIRROR_DELAY_MS = 2_000;

/** One FTS5 table's postings. */
interface TableCopy {
  /** Terms in FTS5's order (UTF-8 bytes, so code points). */
  terms: string[];
  termIds: Map<string, number>;
  /** Per term, its postings' range in {@link docs} (length terms + 1). */
  termStart: Int32Array;
  docs: Int32Array;
  /** Per posting, its positions' range in {@link pos} (length postings + 1). */
  posStart: Int32Array;
  pos: Int32Array;
  /** Per posting, its instances in columns 0 and 1 (saturating at {@link SATURATED}). */
  counts: Uint8Array;
  /** Per document (seq), its tokens in all columns (FTS5's `%_docsize`, summed). */
  docLen: Int32Array;
  /** FTS5's `N` and total of tokens (its averages record). */
  rows: number;
  tokens: number;
  bytes: number;
}

/** The tables' copies and the documents' scopes, of one database version. */
interface Copy {
  body: TableCopy;
  fields: TableCopy;
  /** Per document, its (owner, collection)'s number in {@link scopes} (0: none). */
  scopeOf: Int32Array;
  scopes: Map<string, number>;
  /** Scratch per document: score accumulator and marks. */
  acc: Float64Array;
  mark: Uint32Array;
  markNow: number;
  /** The own-writes count and `data_version` it was built at. */
  writes: number;
  version: number;
  bytes: number;
}

/** A parsed FTS5 expression (the subset {@link parseExpression} reads). */
type ExprNode =
  | { kind: 'phrase'; text: string; prefix: boolean }
  | { kind: 'or' | 'and'; children: ExprNode[] }
  | { kind: 'not'; left: ExprNode; right: ExprNode };

interface ParsedExpression {
  root: ExprNode;
  /** The phrases in the expression's order (FTS5's phrase numbers). */
  phrases: { text: string; prefix: boolean }[];
}

/** A phrase's documents (ascending) and weighted frequency in each. */
interface Hits {
  docs: Int32Array;
  freq: Float64Array;
}

/** Build statistics (logged by the caller, printed by the bench). */
export interface MirrorBuild {
  ms: number;
  bytes: number;
  instances: number;
  /** The longest slice, in ms (how long the event loop was held at most). */
  longestSliceMs: number;
}

export class FtsMirror {
  private readonly db: Database;
  private readonly options: FtsMirrorOptions;
  private readonly dataVersion: Statement;
  private copy: Copy | null = null;
  /** Writes through this connection, by any store on it (see {@link writesOn}). */
  private readonly written: { count: number };
  /** The last build threw: none is tried again until a write. */
  private failed = false;
  private lastWriteAt = 0;
  /** When a search last came: no copy is built for none (see {@link WANTED_FOR_MS}). */
  private wantedAt = Number.NEGATIVE_INFINITY;
  /** Builds given up in a row (a write came): each doubles {@link waitMs}. */
  private givenUp = 0;
  private timer: NodeJS.Timeout | null = null;
  private building: Promise<boolean> | null = null;
  private closed = false;
  /** True once the index was found too large for the budget (until a write changes it). */
  private tooLarge = false;
  private readonly parsedCache = new Map<string, ParsedExpression | null>();
  private readonly tokenCache = new Map<string, string[]>();
  private readonly idfCache = new Map<string, number>();
  /**
   * Phrases' hits of the current copy, kept across searches (see {@link HitsCache}): a search's
   * statements share most phrases, and questions share many words.
   */
  private readonly hitsCache: HitsCache;
  private hitsCopy: Copy | null = null;
  private tokenizer: { insert: Statement; read: Statement; clear: Statement; changes: Statement } | null =
    null;
  private idfOf: Statement | null = null;
  /** The last build's figures, or null. */
  lastBuild: MirrorBuild | null = null;

  constructor(db: Database, options: FtsMirrorOptions) {
    this.db = db;
    this.options = options;
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
    this.written = writesOn(db);
    this.hitsCache = new HitsCache(Math.floor(options.budgetBytes * HITS_SHARE));
  }

  private get writes(): number {
    return this.written.count;
  }

  /** Whether a copy may ever answer (a budget above 0). */
  get enabled(): boolean {
    return this.options.budgetBytes > 0 && !this.closed;
  }

  /**
   * How long writes must have paused before the next build: {@link FtsMirrorOptions.delayMs},
   * doubled for each build given up in a row.
   */
  get waitMs(): number {
    return this.options.delayMs * 2 ** Math.min(this.givenUp, MAX_DELAY_DOUBLINGS);
  }

  /** A write through this connection (any search table): the copy is dropped, rebuilt later. */
  noteWrite(): void {
    this.written.count += 1;
    this.lastWriteAt = Date.now();
    this.failed = false;
    this.dropCopy();
    this.tooLarge = false;
    this.schedule();
  }

  /** A search begins: a copy is built for searches only (see {@link WANTED_FOR_MS}). */
  beginSearch(): void {
    this.wantedAt = Date.now();
    if (this.copy === null) this.schedule();
  }

  /** Stops building; the copy is dropped. */
  close(): void {
    this.closed = true;
    this.dropCopy();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The copy is let go, and the phrases' hits kept of it. */
  private dropCopy(): void {
    this.copy = null;
    this.hitsCache.clear();
    this.hitsCopy = null;
  }

  /** Bytes of phrases' hits kept across searches (see {@link HitsCache}). */
  get hitsBytes(): number {
    return this.hitsCache.size;
  }

  /** Bytes held by the current copy (0 when none). */
  get bytes(): number {
    return this.copy?.bytes ?? 0;
  }

  /**
   * Builds a copy now if there is none and waits for it: true when one is ready (false when
   * turned off, too large, or a write came during the build). For benches and tests.
   */
  async ready(): Promise<boolean> {
    if (this.usable() !== null) return true;
    if (!this.enabled) return false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const built = await (this.building ?? this.build());
    return built && this.usable() !== null;
  }

  /** The copy, when it is of the database as this connection sees it now; else null (FTS5 answers). */
  private usable(): Copy | null {
    const copy = this.copy;
    if (copy === null) return null;
    if (copy.writes !== this.writes || (this.dataVersion.get() as number) !== copy.version) {
      this.dropCopy();
      this.lastWriteAt = Date.now();
      this.schedule();
      return null;
    }
    return copy;
  }

  private schedule(): void {
    if (!this.enabled || !this.db.open || this.failed || this.building !== null || this.timer !== null)
      return;
    if (Date.now() - this.wantedAt > WANTED_FOR_MS) return;
    const wait = Math.max(0, this.lastWriteAt + this.waitMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (Date.now() - this.lastWriteAt < this.waitMs) this.schedule();
      else if (this.copy === null && !this.tooLarge) void this.build();
    }, wait);
    this.timer.unref();
  }

  private build(): Promise<boolean> {
    const building = this.buildCopy()
      .catch(() => {
        this.failed = true;
        return false;
      })
      .then((built) => {
        // Given up (a write came, or the connection was busy): tried again once writes pause, longer.
        if (built) this.givenUp = 0;
        else if (!this.failed && !this.tooLarge) {
          this.givenUp += 1;
          this.lastWriteAt = Date.now();
        }
        return built;
      })
      .finally(() => {
        this.building = null;
        if (this.copy === null && !this.tooLarge) this.schedule();
      });
    this.building = building;
    return building;
  }

  private async buildCopy(): Promise<boolean> {
    const started = performance.now();
    const writes = this.writes;
    const version = this.dataVersion.get() as number;
    let longest = 0;
    let sliceStart = performance.now();
    // Between slices: still the same database (no write here, no commit elsewhere)?
    const pause = async (): Promise<boolean> => {
      longest = Math.max(longest, performance.now() - sliceStart);
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
      if (this.closed || !this.db.open || this.db.inTransaction) return false;
      return this.writes === writes && (this.dataVersion.get() as number) === version;
    };
    const budget = { left: this.options.budgetBytes };
    const body = await this.buildTable('search_fts', ['title', 'headings', 'body'], pause, budget);
    if (body === null) return false;
    const fields = await this.buildTable(
      'search_fields_fts',
      ['title', 'headings', 'summary'],
      pause,
      budget,
    );
    if (fields === null) return false;
    const maxSeq = Math.max(body.docLen.length, fields.docLen.length);
    const scopeOf = new Int32Array(maxSeq);
    const scopes = new Map<string, number>();
    const rowsAfter = this.db.prepare(
      'SELECT seq, owner, collection FROM search_documents WHERE seq > ? ORDER BY seq LIMIT ?',
    );
    let after = -1;
    for (;;) {
      const rows = rowsAfter.raw().all(after, 10_000) as [number, string, string][];
      for (const [seq, owner, collection] of rows) {
        if (seq >= maxSeq) continue;
        const key = `${owner}\u0000${collection}`;
        let id = scopes.get(key);
        if (id === undefined) {
          id = scopes.size + 1;
          scopes.set(key, id);
        }
        scopeOf[seq] = id;
        after = seq;
      }
      if (!(await pause())) return false;
      if (rows.length < 10_000) break;
    }
    const bytes = body.bytes + fields.bytes + maxSeq * (4 + 8 + 4);
    if (bytes > this.options.budgetBytes) {
      this.tooLarge = true;
      return false;
    }
    this.copy = {
      body,
      fields,
      scopeOf,
      scopes,
      acc: new Float64Array(maxSeq),
      mark: new Uint32Array(maxSeq),
      markNow: 0,
      writes,
      version,
      bytes,
    };
    this.lastBuild = {
      ms: performance.now() - started,
      bytes,
      instances: body.pos.length + fields.pos.length,
      longestSliceMs: longest,
    };
    return true;
  }

  /** One FTS5 table's copy, read in slices (null: the database changed meanwhile, or too large). */
  private async buildTable(
    table: string,
    columns: readonly string[],
    givenPause: () => Promise<boolean>,
    budget: { left: number },
  ): Promise<TableCopy | null> {
    let pause = givenPause;
    const vocab = `temp.${table}_mirror_row`;
    const instances = `temp.${table}_mirror_instance`;
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${vocab} USING fts5vocab(main, ${table}, row)`);
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${instances} USING fts5vocab(main, ${table}, instance)`);
    // The terms, with how many documents and instances each: the arrays' sizes, known before any.
    // Each term's counts walk its whole doclist: a slice ends after SLICE_MS, not after a count.
    const termsAfter = this.db.prepare(`SELECT term, doc, cnt FROM ${vocab} WHERE term > ?`).raw();
    const terms: string[] = [];
    const postingsOf: number[] = [];
    const instancesOf: number[] = [];
    let postings = 0;
    let total = 0;
    for (let last = '', done = false; !done; ) {
      const started = performance.now();
      done = true;
      for (const [term, docs, cnt] of termsAfter.iterate(last) as IterableIterator<
        [string, number, number]
      >) {
        terms.push(term);
        postingsOf.push(docs);
        instancesOf.push(cnt);
        postings += docs;
        total += cnt;
        last = term;
        if (performance.now() - started > SLICE_MS) {
          done = false;
          break;
        }
      }
      if (!(await pause())) return null;
    }
    const maxSeq =
      ((this.db.prepare(`SELECT max(id) FROM ${table}_docsize`).pluck().get() as number | null) ?? 0) + 1;
    if (maxSeq >= MAX_DOC) return null;
    const bytes =
      terms.length * 64 + (terms.length + 1) * 4 + postings * (4 + 4 + 2) + 4 + total * 4 + maxSeq * 4;
    budget.left -= bytes;
    if (budget.left < 0) {
      this.tooLarge = true;
      return null;
    }
    const termIds = new Map<string, number>();
    const termStart = new Int32Array(terms.length + 1);
    const docs = new Int32Array(postings);
    const posStart = new Int32Array(postings + 1);
    const pos = new Int32Array(total);
    const counts = new Uint8Array(postings * 2);
    const caseOf = columns.map((c, i) => `WHEN '${c}' THEN ${i * COLUMN_SHIFT}`).join(' ');
    const read = this.db
      .prepare(
        `SELECT doc * ${DOC_SHIFT} + (CASE col ${caseOf} END) + offset FROM ${instances} WHERE term = ? LIMIT ? OFFSET ?`,
      )
      .pluck();
    let np = 0;
    let ni = 0;
    let inSlice = 0;
    let sliceStart = performance.now();
    const due = () => performance.now() - sliceStart > SLICE_MS;
    const pauseTimed = pause;
    pause = async () => {
      const still = await pauseTimed();
      sliceStart = performance.now();
      return still;
    };
    for (let t = 0; t < terms.length; t += 1) {
      const term = terms[t]!;
      // Ascending in code-point order, which the prefix look-ups bisect.
      if (t > 0 && compareCodePoints(term, terms[t - 1]!) <= 0) return null;
      termIds.set(term, t);
      termStart[t] = np;
      let lastDoc = -1;
      let read_ = 0;
      const expected = instancesOf[t]!;
      while (read_ < expected) {
        const rows = read.all(term, Math.min(SLICE_ROWS, expected - read_), read_) as number[];
        if (rows.length === 0) return null;
        for (const x of rows) {
          const doc = Math.floor(x / DOC_SHIFT);
          const p = x - doc * DOC_SHIFT;
          if (doc >= maxSeq || p >= 3 * COLUMN_SHIFT || ni >= total) return null;
          if (doc !== lastDoc) {
            if (np >= postings) return null;
            docs[np] = doc;
            posStart[np] = ni;
            np += 1;
            lastDoc = doc;
          }
          pos[ni] = p;
          ni += 1;
          const column = Math.floor(p / COLUMN_SHIFT);
          if (column < 2) {
            const at = (np - 1) * 2 + column;
            if (counts[at]! < SATURATED) counts[at] = counts[at]! + 1;
          }
        }
        read_ += rows.length;
        inSlice += rows.length;
        if (inSlice >= SLICE_ROWS || due()) {
          inSlice = 0;
          if (!(await pause())) return null;
        }
      }
      // Each term is a statement of its own (a seek of the index): many small ones make a slice too.
      if (due()) {
        inSlice = 0;
        if (!(await pause())) return null;
      }
      if (np - termStart[t]! !== postingsOf[t]) return null;
    }
    termStart[terms.length] = np;
    posStart[np] = ni;
    if (np !== postings || ni !== total) return null;
    // Each row's length as bm25() reads it (xColumnSize(-1): the columns' sizes summed).
    const docLen = new Int32Array(maxSeq);
    const sizesAfter = this.db
      .prepare(`SELECT id, sz FROM ${table}_docsize WHERE id > ? ORDER BY id LIMIT ?`)
      .raw();
    for (let after = -1; ; ) {
      const rows = sizesAfter.all(after, 5_000) as [number, Buffer][];
      for (const [id, sz] of rows) {
        let sum = 0;
        for (let at = 0; at < sz.length; ) {
          const [value, next] = readVarint(sz, at);
          sum += value;
          at = next;
        }
        docLen[id] = sum;
        after = id;
      }
      if (!(await pause())) return null;
      if (rows.length < 5_000) break;
    }
    // N and the total of tokens as bm25() reads them (xRowCount, xColumnTotalSize(-1)).
    const averages = this.db.prepare(`SELECT block FROM ${table}_data WHERE id = 1`).pluck().get() as
      | Buffer
      | undefined;
    let rows = 0;
    let tokens = 0;
    if (averages !== undefined) {
      let at = 0;
      [rows, at] = readVarint(averages, 0);
      while (at < averages.length) {
        const [value, next] = readVarint(averages, at);
        tokens += value;
        at = next;
      }
    }
    return { terms, termIds, termStart, docs, posStart, pos, counts, docLen, rows, tokens, bytes };
  }

  // ---- Answers (null: FTS5 answers) ----

  /** {@link SearchDocumentStore.findMatches}'s answer. */
  findMatches(query: MatchQuery): MatchRow[] | null {
    const copy = this.answering(query.weights, query.urlPrefix, query.site);
    if (copy === null) return null;
    const table = query.index === 'fields' ? copy.fields : copy.body;
    const evaluated = this.evaluate(copy, table, query.match, query.weights, true);
    if (evaluated === null) return null;
    const scope = copy.scopes.get(`${query.owner}\u0000${query.collection}`);
    if (scope === undefined) return [];
    return best(evaluated.matched, copy.acc, copy.scopeOf, scope, query.limit, () => evaluated.clear());
  }

  /**
   * {@link SearchDocumentStore.findMatchesScoring}'s answer: the rows, and the score of every
   * document of `seqs` that matches (those the FTS5 statement gives, and the rest, with the score
   * {@link SearchDocumentStore.scoresOf} would give them).
   */
  findMatchesScoring(
    query: MatchQuery,
    seqs: readonly number[],
  ): { rows: MatchRow[]; scores: Map<number, number> } | null {
    const copy = this.answering(query.weights, query.urlPrefix, query.site);
    if (copy === null) return null;
    const table = query.index === 'fields' ? copy.fields : copy.body;
    const evaluated = this.evaluate(copy, table, query.match, query.weights, true);
    if (evaluated === null) return null;
    const scores = new Map<number, number>();
    const stamp = nextMark(copy);
    for (const d of evaluated.matched) copy.mark[d] = stamp;
    for (const seq of seqs)
      if (seq < copy.mark.length && copy.mark[seq] === stamp) scores.set(seq, copy.acc[seq]!);
    const scope = copy.scopes.get(`${query.owner}\u0000${query.collection}`);
    if (scope === undefined) {
      evaluated.clear();
      return { rows: [], scores };
    }
    return {
      rows: best(evaluated.matched, copy.acc, copy.scopeOf, scope, query.limit, () => evaluated.clear()),
      scores,
    };
  }

  /** {@link SearchDocumentStore.countMatches}'s answer. */
  countMatches(match: string, atMost: number): number | null {
    const copy = this.answering({ title: 1, headings: 1, body: 1 }, undefined, undefined);
    if (copy === null) return null;
    const evaluated = this.evaluate(copy, copy.body, match, { title: 1, headings: 1, body: 1 }, false);
    if (evaluated === null) return null;
    return Math.min(evaluated.matched.length, atMost);
  }

  /** {@link SearchDocumentStore.scoresOf}'s answer. */
  scoresOf(match: string, seqs: readonly number[], weights: Bm25Weights): Map<number, number> | null {
    const copy = this.answering(weights, undefined, undefined);
    if (copy === null) return null;
    // A few documents: each one's phrases looked up in the phrases' hits (no walk of them all).
    const phrases = this.phrasesOf(copy, copy.body, match, weights);
    if (phrases === null) return null;
    const { parsed, hits, byNode } = phrases;
    const scores = new Map<number, number>();
    const avgdl = copy.body.tokens / copy.body.rows;
    for (const seq of seqs) {
      if (!containedIn(parsed.root, seq, byNode)) continue;
      let score = 0;
      for (const h of hits) {
        const at = indexOf(h.docs, seq);
        if (at < 0) continue;
        const f = h.freq[at]!;
        const idf = this.idf(copy.body.rows, h.docs.length);
        score += idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * copy.body.docLen[seq]!) / avgdl)));
      }
      scores.set(seq, score);
    }
    return scores;
  }

  private answering(
    weights: Bm25Weights,
    urlPrefix: string | undefined,
    site: string | undefined,
  ): Copy | null {
    if (urlPrefix !== undefined || site !== undefined) return null;
    if (
      !Number.isInteger(weights.title) ||
      !Number.isInteger(weights.headings) ||
      !Number.isInteger(weights.body)
    )
      return null;
    return this.usable();
  }

  /**
   * The documents `match` selects (ascending) and, with `scoring`, each one's bm25() score left in
   * `copy.acc` (cleared by `clear`).
   */
  private evaluate(
    copy: Copy,
    table: TableCopy,
    match: string,
    weights: Bm25Weights,
    scoring: boolean,
  ): { matched: Int32Array; clear: () => void } | null {
    const phrases = this.phrasesOf(copy, table, match, weights);
    if (phrases === null) return null;
    const { parsed, hits, byNode } = phrases;
    const matched = matchedBy(parsed.root, byNode, copy);
    if (!scoring) return { matched, clear: () => {} };
    // bm25(): each phrase's term added in phrase order (FTS5's loop), from 0.
    const avgdl = table.tokens / table.rows;
    const acc = copy.acc;
    for (const h of hits) {
      const idf = this.idf(table.rows, h.docs.length);
      for (let i = 0; i < h.docs.length; i += 1) {
        const d = h.docs[i]!;
        const f = h.freq[i]!;
        acc[d] = acc[d]! + idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * table.docLen[d]!) / avgdl)));
      }
    }
    return {
      matched,
      clear: () => {
        for (const h of hits) for (let i = 0; i < h.docs.length; i += 1) acc[h.docs[i]!] = 0;
      },
    };
  }

  /** The expression, and its phrases' hits in phrase order and by node (null: FTS5 answers). */
  private phrasesOf(
    copy: Copy,
    table: TableCopy,
    match: string,
    weights: Bm25Weights,
  ): { parsed: ParsedExpression; hits: Hits[]; byNode: Map<ExprNode, Hits> } | null {
    const parsed = this.parsed(match);
    if (parsed === null) return null;
    const tokens = this.tokensOf(parsed.phrases.map((p) => p.text));
    if (tokens === null) return null;
    if (this.hitsCopy !== copy) {
      this.hitsCache.clear();
      this.hitsCopy = copy;
    }
    const w = [weights.title, weights.headings, weights.body];
    const side = `${table === copy.body ? 'b' : 'f'} ${w.join(' ')} `;
    const hits = parsed.phrases.map((phrase, i) => {
      const key = `${side}${phrase.prefix ? '*' : ''}${phrase.text}`;
      let found = this.hitsCache.get(key);
      if (found === undefined) {
        found = phraseHits(table, tokens[i]!, phrase.prefix, w, copy);
        this.hitsCache.set(key, found, table.docs.buffer);
      }
      return found;
    });
    let next = 0;
    const byNode = new Map<ExprNode, Hits>();
    const number = (node: ExprNode): void => {
      if (node.kind === 'phrase') byNode.set(node, hits[next++]!);
      else if (node.kind === 'not') {
        number(node.left);
        number(node.right);
      } else for (const child of node.children) number(child);
    };
    number(parsed.root);
    return { parsed, hits, byNode };
  }

  /** FTS5's idf of a phrase held by `hit` of `rows` documents, computed by SQLite's `ln()`. */
  private idf(rows: number, hit: number): number {
    const key = `${rows} ${hit}`;
    let idf = this.idfCache.get(key);
    if (idf === undefined) {
      this.idfOf ??= this.db.prepare('SELECT ln((? - ? + 0.5) / (? + 0.5))').pluck();
      const value = this.idfOf.get(rows, hit, hit) as number | null;
      idf = value === null || !(value > 0) ? 1e-6 : value;
      if (this.idfCache.size >= 100_000) this.idfCache.clear();
      this.idfCache.set(key, idf);
    }
    return idf;
  }

  private parsed(match: string): ParsedExpression | null {
    let parsed = this.parsedCache.get(match);
    if (parsed === undefined) {
      parsed = parseExpression(match);
      if (this.parsedCache.size >= 2_000) this.parsedCache.clear();
      this.parsedCache.set(match, parsed);
    }
    return parsed;
  }

  /** Each phrase's tokens as FTS5 makes them (null when one has none: FTS5 answers). */
  private tokensOf(texts: readonly string[]): string[][] | null {
    const missing = [...new Set(texts.filter((t) => !this.tokenCache.has(t)))];
    if (missing.length > 0) {
      if (this.tokenizer === null) {
        this.db.exec(
          `CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_mirror_tokens USING fts5(t, tokenize = '${SEARCH_TOKENIZER}')`,
        );
        this.db.exec(
          'CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_mirror_token_instances USING fts5vocab(temp, search_mirror_tokens, instance)',
        );
        this.tokenizer = {
          insert: this.db.prepare('INSERT INTO temp.search_mirror_tokens (rowid, t) VALUES (?, ?)'),
          read: this.db
            .prepare('SELECT doc, term FROM temp.search_mirror_token_instances ORDER BY doc, offset')
            .raw(),
          clear: this.db.prepare('DELETE FROM temp.search_mirror_tokens'),
          changes: this.db.prepare('SELECT total_changes()').pluck(),
        };
      }
      const { insert, read, clear, changes } = this.tokenizer;
      const before = changes.get() as number;
      for (let i = 0; i < missing.length; i += 1) insert.run(i + 1, missing[i]);
      const found = missing.map((): string[] => []);
      for (const [doc, term] of read.all() as [number, string][]) found[doc - 1]!.push(term);
      clear.run();
      // Scratch rows, no page's: not a change of the pages (SearchDocumentStore.version).
      scratchChangesOn(this.db).count += (changes.get() as number) - before;
      if (this.tokenCache.size + missing.length > 20_000) this.tokenCache.clear();
      for (let i = 0; i < missing.length; i += 1) this.tokenCache.set(missing[i]!, found[i]!);
    }
    const out: string[][] = [];
    for (const text of texts) {
      const tokens = this.tokenCache.get(text);
      if (tokens === undefined || tokens.length === 0) return null;
      out.push(tokens);
    }
    return out;
  }
}

/**
 * The count of writes through one connection, shared by every store on it: `data_version` does
 * not move for a connection's own commits, so each write is counted where it is made.
 */
const writeCounts = new WeakMap<Database, { count: number }>();
function writesOn(db: Database): { count: number } {
  let counted = writeCounts.get(db);
  if (counted === undefined) {
    counted = { count: 0 };
    writeCounts.set(db, counted);
  }
  return counted;
}

/** The share of the copy's byte budget its phrases' hits may take besides (see {@link HitsCache}). */
const HITS_SHARE = 1 / 8;

/**
 * Phrases' hits (documents and weighted frequencies) of one copy, kept across searches up to a
 * byte budget, the least recently used let go first. A phrase's hits are a function of the copy
 * alone (its postings, the column weights in the key), so a kept one is the one a new walk would
 * give; the caller clears them when the copy changes. The documents of a one-term phrase are a
 * view of the copy's own array (`shared`) and cost nothing more.
 */
class HitsCache {
  private readonly entries = new Map<string, { hits: Hits; bytes: number }>();
  private bytes = 0;

  constructor(private readonly budget: number) {}

  get(key: string): Hits | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Most recently used last (a Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.hits;
  }

  set(key: string, hits: Hits, shared: ArrayBufferLike): void {
    const bytes =
      key.length * 2 + 64 + hits.freq.byteLength + (hits.docs.buffer === shared ? 0 : hits.docs.byteLength);
    if (bytes > this.budget) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    this.entries.set(key, { hits, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Bytes held (for tests and the bench). */
  get size(): number {
    return this.bytes;
  }
}

/**
 * Rows a connection changed in the search's scratch tables (a query's phrases tokenised), which
 * `total_changes()` counts with the pages' (see `SearchDocumentStore.version`).
 */
const scratchCounts = new WeakMap<Database, { count: number }>();
export function scratchChangesOn(db: Database): { count: number } {
  let counted = scratchCounts.get(db);
  if (counted === undefined) {
    counted = { count: 0 };
    scratchCounts.set(db, counted);
  }
  return counted;
}

/** The tokenizer of both FTS5 tables (schema.ts). */
export const SEARCH_TOKENIZER = 'porter unicode61 remove_diacritics 2';

function nextMark(copy: Copy): number {
  copy.markNow += 1;
  if (copy.markNow >= 0xffffffff) {
    copy.mark.fill(0);
    copy.markNow = 1;
  }
  return copy.markNow;
}

/** The best `limit` of `matched` in `scope` by score (in `acc`), then seq; `clear` is called after. */
function best(
  matched: Int32Array,
  acc: Float64Array,
  scopeOf: Int32Array,
  scope: number,
  limit: number,
  clear: () => void,
): MatchRow[] {
  const rows: MatchRow[] = [];
  if (limit <= 0) {
    clear();
    return rows;
  }
  let inScope = 0;
  const scores = new Float64Array(matched.length);
  for (const d of matched) if (scopeOf[d] === scope) scores[inScope++] = acc[d]!;
  const threshold =
    inScope > limit ? kthLargest(scores.subarray(0, inScope), limit) : Number.NEGATIVE_INFINITY;
  for (const d of matched) {
    if (scopeOf[d] !== scope) continue;
    const score = acc[d]!;
    if (score >= threshold) rows.push({ seq: d, score });
  }
  clear();
  rows.sort((a, b) => b.score - a.score || a.seq - b.seq);
  if (rows.length > limit) rows.length = limit;
  return rows;
}

/** The k-th largest of `xs` (reorders them). */
function kthLargest(xs: Float64Array, k: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  const want = k - 1;
  while (lo < hi) {
    const pivot = xs[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (xs[i]! > pivot) i += 1;
      while (xs[j]! < pivot) j -= 1;
      if (i <= j) {
        const t = xs[i]!;
        xs[i] = xs[j]!;
        xs[j] = t;
        i += 1;
        j -= 1;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else return xs[want]!;
  }
  return xs[want]!;
}

/** The documents (ascending) an expression node selects. */
function matchedBy(node: ExprNode, hits: Map<ExprNode, Hits>, copy: Copy): Int32Array {
  if (node.kind === 'phrase') return hits.get(node)!.docs;
  if (node.kind === 'not') {
    const left = matchedBy(node.left, hits, copy);
    const right = matchedBy(node.right, hits, copy);
    const stamp = nextMark(copy);
    for (const d of right) copy.mark[d] = stamp;
    return left.filter((d) => copy.mark[d] !== stamp);
  }
  const sets = node.children.map((child) => matchedBy(child, hits, copy));
  if (sets.length === 1) return sets[0]!;
  if (node.kind === 'and') {
    sets.sort((a, b) => a.length - b.length);
    let out = sets[0]!;
    for (let s = 1; s < sets.length && out.length > 0; s += 1) out = intersect(out, sets[s]!);
    return out;
  }
  const stamp = nextMark(copy);
  const mark = copy.mark;
  let n = 0;
  let low = Number.POSITIVE_INFINITY;
  let high = -1;
  for (const set of sets) {
    if (set.length === 0) continue;
    low = Math.min(low, set[0]!);
    high = Math.max(high, set[set.length - 1]!);
    for (let i = 0; i < set.length; i += 1) {
      const d = set[i]!;
      if (mark[d] !== stamp) {
        mark[d] = stamp;
        n += 1;
      }
    }
  }
  // Many documents of a short range (the any-word expression's, most of the index): read off the
  // marks in order, no sort.
  if (n > 0 && high - low < n * 16) {
    const out = new Int32Array(n);
    let at = 0;
    for (let d = low; d <= high; d += 1) if (mark[d] === stamp) out[at++] = d;
    return out;
  }
  const out = new Int32Array(n);
  let at = 0;
  const again = nextMark(copy);
  for (const set of sets)
    for (const d of set)
      if (copy.mark[d] !== again) {
        copy.mark[d] = again;
        out[at++] = d;
      }
  return out.sort();
}

/** Whether the expression node selects document `seq`. */
function containedIn(node: ExprNode, seq: number, hits: Map<ExprNode, Hits>): boolean {
  if (node.kind === 'phrase') return indexOf(hits.get(node)!.docs, seq) >= 0;
  if (node.kind === 'not') return containedIn(node.left, seq, hits) && !containedIn(node.right, seq, hits);
  if (node.kind === 'and') return node.children.every((child) => containedIn(child, seq, hits));
  return node.children.some((child) => containedIn(child, seq, hits));
}

/** Where `value` is in the ascending `xs`, or -1. */
function indexOf(xs: Int32Array, value: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo < xs.length && xs[lo] === value ? lo : -1;
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  let j = 0;
  for (let i = 0; i < a.length && j < b.length; i += 1) {
    const d = a[i]!;
    while (j < b.length && b[j]! < d) j += 1;
    if (j < b.length && b[j] === d) out[n++] = d;
  }
  return out.subarray(0, n);
}

/** The term ids a query token stands for: itself, or with `prefix` every term it starts. */
function termsOf(table: TableCopy, token: string, prefix: boolean): number[] {
  if (!prefix) {
    const id = table.termIds.get(token);
    return id === undefined ? [] : [id];
  }
  let lo = 0;
  let hi = table.terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareCodePoints(table.terms[mid]!, token) < 0) lo = mid + 1;
    else hi = mid;
  }
  const ids: number[] = [];
  for (let t = lo; t < table.terms.length && table.terms[t]!.startsWith(token); t += 1) ids.push(t);
  return ids;
}

/** A posting's weighted frequency: its instances' column weights summed (integers: exact). */
function postingFreq(table: TableCopy, p: number, w: readonly number[]): number {
  const n = table.posStart[p + 1]! - table.posStart[p]!;
  let c0 = table.counts[p * 2]!;
  let c1 = table.counts[p * 2 + 1]!;
  if (c0 === SATURATED || c1 === SATURATED) {
    c0 = 0;
    c1 = 0;
    for (let k = table.posStart[p]!; k < table.posStart[p + 1]!; k += 1) {
      const column = Math.floor(table.pos[k]! / COLUMN_SHIFT);
      if (column === 0) c0 += 1;
      else if (column === 1) c1 += 1;
    }
  }
  return w[0]! * c0 + w[1]! * c1 + w[2]! * (n - c0 - c1);
}

/** One phrase's documents and weighted frequencies, as FTS5's instances of it give them. */
function phraseHits(
  table: TableCopy,
  tokens: readonly string[],
  prefix: boolean,
  w: readonly number[],
  copy: Copy,
): Hits {
  const lists = tokens.map((token, i) => termsOf(table, token, prefix && i === tokens.length - 1));
  if (lists.some((l) => l.length === 0)) return { docs: new Int32Array(0), freq: new Float64Array(0) };
  if (tokens.length === 1) {
    const ids = lists[0]!;
    if (ids.length === 1) {
      const t = ids[0]!;
      const from = table.termStart[t]!;
      const to = table.termStart[t + 1]!;
      const freq = new Float64Array(to - from);
      for (let p = from; p < to; p += 1) freq[p - from] = postingFreq(table, p, w);
      return { docs: table.docs.subarray(from, to), freq };
    }
    // A prefix: every term's frequencies summed per document.
    const acc = copy.acc;
    const stamp = nextMark(copy);
    const touched: number[] = [];
    for (const t of ids)
      for (let p = table.termStart[t]!; p < table.termStart[t + 1]!; p += 1) {
        const d = table.docs[p]!;
        if (copy.mark[d] !== stamp) {
          copy.mark[d] = stamp;
          touched.push(d);
        }
        acc[d] = acc[d]! + postingFreq(table, p, w);
      }
    const docs = Int32Array.from(touched).sort();
    const freq = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i += 1) {
      freq[i] = acc[docs[i]!]!;
      acc[docs[i]!] = 0;
    }
    return { docs, freq };
  }
  // A phrase of several tokens: positions p where token j stands at p + j (in one column). The
  // documents of its rarest one-term token are walked; each other token's postings are advanced to
  // them (galloping), and positions are compared in place (a prefix token's are merged first).
  const m = tokens.length;
  let lead = -1;
  let leadSize = 0;
  for (let j = 0; j < m; j += 1) {
    if (lists[j]!.length !== 1) continue;
    const t = lists[j]![0]!;
    const n = table.termStart[t + 1]! - table.termStart[t]!;
    if (lead === -1 || n < leadSize) {
      lead = j;
      leadSize = n;
    }
  }
  const termCursor: Int32Array[] = lists.map((l) => Int32Array.from(l, (t) => table.termStart[t]!));
  const termEnd: Int32Array[] = lists.map((l) => Int32Array.from(l, (t) => table.termStart[t + 1]!));
  const arrays: Int32Array[] = lists.map(() => table.pos);
  const from = new Int32Array(m);
  const to = new Int32Array(m);
  const ptr = new Int32Array(m);
  const merged: (number[] | null)[] = lists.map((l) => (l.length > 1 ? [] : null));
  const docsOut: number[] = [];
  const freqOut: number[] = [];
  const docs = table.docs;
  const leadTerm = lists[lead]![0]!;
  documents: for (let lp = table.termStart[leadTerm]!; lp < table.termStart[leadTerm + 1]!; lp += 1) {
    const d = docs[lp]!;
    for (let j = 0; j < m; j += 1) {
      const cursor = termCursor[j]!;
      const end = termEnd[j]!;
      const list = merged[j]!;
      if (list !== null) list.length = 0;
      let found = false;
      for (let k = 0; k < cursor.length; k += 1) {
        let at = cursor[k]!;
        const stop = end[k]!;
        let step = 1;
        while (at + step < stop && docs[at + step]! < d) {
          at += step;
          step *= 2;
        }
        while (at < stop && docs[at]! < d) at += 1;
        cursor[k] = at;
        if (at < stop && docs[at] === d) {
          found = true;
          if (list === null) {
            from[j] = table.posStart[at]!;
            to[j] = table.posStart[at + 1]!;
          } else
            for (let q = table.posStart[at]!; q < table.posStart[at + 1]!; q += 1) list.push(table.pos[q]!);
        }
      }
      if (!found) continue documents;
      if (list !== null) {
        list.sort((x, y) => x - y);
        arrays[j] = Int32Array.from(list);
        from[j] = 0;
        to[j] = list.length;
      }
    }
    let f = 0;
    let instances = 0;
    for (let j = 1; j < m; j += 1) ptr[j] = from[j]!;
    const first = arrays[0]!;
    scan: for (let k = from[0]!; k < to[0]!; k += 1) {
      const p0 = first[k]!;
      for (let j = 1; j < m; j += 1) {
        const values = arrays[j]!;
        const stop = to[j]!;
        let q = ptr[j]!;
        while (q < stop && values[q]! < p0 + j) q += 1;
        ptr[j] = q;
        if (q >= stop) break scan;
        if (values[q] !== p0 + j) continue scan;
      }
      f += w[Math.floor(p0 / COLUMN_SHIFT)]!;
      instances += 1;
    }
    // Held (a weight of 0 leaves its frequency 0, but the document still holds it: n counts it).
    if (instances > 0) {
      docsOut.push(d);
      freqOut.push(f);
    }
  }
  return { docs: Int32Array.from(docsOut), freq: Float64Array.from(freqOut) };
}

/**
 * Reads the FTS5 expressions the search writes: quoted phrases (an optional `*` after the
 * closing quote), parentheses, and `AND`, `OR`, `NOT` with one operator kind per level and a `NOT`
 * whose right side is phrases OR-ed (their instances then never count on a selected row). Null
 * for anything else (FTS5 answers).
 */
export function parseExpression(match: string): ParsedExpression | null {
  const tokens: (
    | { kind: 'phrase'; text: string; prefix: boolean }
    | { kind: '(' | ')' | 'AND' | 'OR' | 'NOT' }
  )[] = [];
  let i = 0;
  while (i < match.length) {
    const c = match[i]!;
    if (c === ' ') {
      i += 1;
    } else if (c === '"') {
      const end = match.indexOf('"', i + 1);
      if (end < 0 || match[end + 1] === '"') return null;
      const prefix = match[end + 1] === '*';
      tokens.push({ kind: 'phrase', text: match.slice(i + 1, end), prefix });
      i = end + (prefix ? 2 : 1);
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c });
      i += 1;
    } else {
      const word = /^(AND|OR|NOT)(?= |\(|"|$)/.exec(match.slice(i, i + 4));
      if (word === null) return null;
      tokens.push({ kind: word[1] as 'AND' | 'OR' | 'NOT' });
      i += word[1]!.length;
    }
  }
  let at = 0;
  const phrases: { text: string; prefix: boolean }[] = [];
  const group = (): ExprNode | null => {
    const operands: ExprNode[] = [];
    let operator: 'AND' | 'OR' | 'NOT' | null = null;
    for (;;) {
      const token = tokens[at];
      if (token === undefined) return null;
      let operand: ExprNode | null;
      if (token.kind === 'phrase') {
        at += 1;
        operand = { kind: 'phrase', text: token.text, prefix: token.prefix };
        phrases.push({ text: token.text, prefix: token.prefix });
      } else if (token.kind === '(') {
        at += 1;
        operand = group();
        if (operand === null || tokens[at]?.kind !== ')') return null;
        at += 1;
      } else return null;
      operands.push(operand);
      const next = tokens[at];
      if (next === undefined || next.kind === ')') break;
      if (next.kind !== 'AND' && next.kind !== 'OR' && next.kind !== 'NOT') return null;
      if (operator !== null && operator !== next.kind) return null;
      operator = next.kind;
      at += 1;
    }
    if (operands.length === 1) return operands[0]!;
    if (operator === 'NOT') {
      if (operands.length !== 2 || !isPhrasesOred(operands[1]!)) return null;
      return { kind: 'not', left: operands[0]!, right: operands[1]! };
    }
    return { kind: operator === 'AND' ? 'and' : 'or', children: operands };
  };
  const root = group();
  if (root === null || at !== tokens.length || phrases.length === 0) return null;
  return { root, phrases };
}

function isPhrasesOred(node: ExprNode): boolean {
  return node.kind === 'phrase' || (node.kind === 'or' && node.children.every(isPhrasesOred));
}

/** Code-point order (FTS5's, UTF-8 bytes), which `<` on UTF-16 strings is not past U+FFFF. */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    x = x >= 0xe000 ? x - 0x800 : x >= 0xd800 ? x + 0x2000 : x;
    y = y >= 0xe000 ? y - 0x800 : y >= 0xd800 ? y + 0x2000 : y;
    return x - y;
  }
  return a.length - b.length;
}

/** SQLite's varint (FTS5 writes its sizes with it): big-endian 7-bit groups, a 9th byte of 8. */
function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 8; i += 1) {
    const byte = bytes[at + i]!;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, at + i + 1];
  }
  return [value * 256 + bytes[at + 8]!, at + 9];
}
