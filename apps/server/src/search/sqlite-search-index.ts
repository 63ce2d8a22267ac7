import { randomBytes } from 'node:crypto';
import type { SearchAnswer, SearchHit, SearchParams } from '@webdata/contract';
import type { Database } from 'better-sqlite3';
import { retryWhileBusy } from '../store/sqlite/busy-retry.js';
import {
  DEFAULT_MIRROR_BUDGET_BYTES,
  DEFAULT_MIRROR_DELAY_MS,
  type FtsMirrorOptions,
  type MirrorBuild,
} from '../store/sqlite/search/fts-mirror.js';
import {
  type Bm25Weights,
  type MatchedDocument,
  type MatchRow,
  migrateSearchIndex,
  SearchDocumentStore,
  SNIPPET_ELLIPSIS,
} from '../store/sqlite/search/index.js';
import {
  DEFAULT_SEMANTIC_FUSION,
  fuseWithNearest,
  nearestDocuments,
  type SemanticFusion,
  vectorFromBytes,
  vectorToBytes,
} from './embeddings.js';
import { stripMarkerCharacters } from './marker-characters.js';
import { PageCache } from './page-cache.js';
import { DEFAULT_PASSAGE_WEIGHTS, type PassageWeights, passageNeedles, rescoreByPassage } from './passage.js';
import {
  allClausesOf,
  matchOf,
  type ParsedQuery,
  parseSearchQuery,
  positiveClauses,
  type QueryParseOptions,
  type Ranking,
  rankingOf,
} from './query-parser.js';
import {
  type CandidateFields,
  candidateFields,
  DEFAULT_RERANK_WEIGHTS,
  OPENING_CHARACTERS,
  type RankCandidate,
  type RerankWeights,
  rerank,
  summaryOf,
} from './rerank.js';
import { type CursorScope, decodeSearchCursor, encodeSearchCursor, searchScopeOf } from './search-cursor.js';
import { snippetNeedles, snippetsOfPages, snippetsReadOnlyWhiteSpace } from './snippet.js';
import { snippetToHtml } from './snippet-html.js';
import { TextScans } from './text-scans.js';
import type { IndexedDocument, SearchIndexLike } from './types.js';
import { type Utf8Text, utf8Text } from './utf8-text.js';
import { WordIndex, wordIndexToStore } from './word-index.js';

/** Ranking and parsing knobs of {@link SqliteSearchIndex}; the defaults are the measured best. */
export interface SqliteSearchIndexOptions extends QueryParseOptions {
  /** Clock for `indexed_at` (tests pin it). */
  now?: () => Date;
  /** `bm25()` column weights. Default title 10, headings 4, body 1. */
  weights?: Bm25Weights;
  /** Weights of the re-ranking priors (see {@link rerank}). */
  rerank?: RerankWeights;
  /** How many of the best bm25 matches are re-ranked. Default 100. */
  rerankDepth?: number;
  /** The best-passage step (see {@link rescoreByPassage}); `{ weight: 0, … }` turns it off. */
  passage?: PassageWeights;
  /** Candidates found by the small fields (see {@link FieldCandidates}); `{ depth: 0, … }` turns them off. */
  fieldCandidates?: FieldCandidates;
  /** How the nearest chunks' ranking is fused with the lexical one (a query with a vector only). */
  semanticFusion?: SemanticFusion;
  /**
   * Leave the phrases held by half of the index or more (bm25()'s idf floor) out of the body's
   * ranking statements. Default true; false ranks with every phrase (to compare).
   */
  leaveOutFlooredPhrases?: boolean;
  /**
   * The FTS indexes' copy in memory that answers the first stage (store/sqlite/search/fts-mirror.ts):
   * its byte budget (0 turns it off; default 512 MB) and how long writes must pause before it is
   * built again (default 2 s). Built in the background after the index is opened.
   */
  mirror?: Partial<FtsMirrorOptions>;
  /**
   * Bytes of pages kept across searches (their rows, word indexes and bodies' bytes: see
   * page-cache.ts). Default a quarter of the mirror's budget (128 MB); 0 keeps none.
   */
  pageCacheBytes?: number;
}

/**
 * A second candidate query, over the small fields (title, headings and summary, the first
 * sentence of the body's first paragraph of prose: what a page says it is about): its best
 * `depth` pages join the body's best before re-ranking. A page whose body lacks one of the
 * question's words (while over a hundred others hold them all), or is long, is still re-ranked
 * when those fields name the thing asked ("who changed a line" → `git-blame`: "Annotates each line
 * in the given file with information from the revision which last modified the line.").
 */
export interface FieldCandidates {
  /** How many of the small fields' best pages join the candidates (0: none). */
  depth: number;
  /** `bm25()` weights of the small-field index: title, headings, summary. */
  weights: SmallFieldWeights;
  /**
   * A joined page's lexical score is the larger of its body's bm25 (as the body's candidates
   * are scored) and `scale` × its small fields' bm25: a long page is not held back by its length.
   */
  scale: number;
}

/** Column weights of `bm25()` over the small-field index. */
export interface SmallFieldWeights {
  title: number;
  headings: number;
  summary: number;
}

export const DEFAULT_FIELD_CANDIDATES: FieldCandidates = {
  depth: 20,
  weights: { title: 10, headings: 4, summary: 4 },
  scale: 0.5,
};

export const DEFAULT_WEIGHTS: Bm25Weights = { title: 10, headings: 4, body: 1 };
const DEFAULT_RERANK_DEPTH = 100;

/**
 * The collection search index on SQLite FTS5: documents per (owner,
 * collection, url) holding any of the query's words, the best by weighted
 * `bm25()` re-ranked by how many of the words they hold and where (title,
 * headings, URL path). See README.md.
 *
 * @example
 * ```ts
 * const index = new SqliteSearchIndex(new Database(':memory:'));
 * index.upsert({ owner: 'o', collection: 'docs', url: 'https://d.example/a', title: 'A', headings: [], body: 'text', runId: 'run_1' });
 * index.search('o', { query: 'text', collection: 'docs', limit: 10 });
 * ```
 */
export class SqliteSearchIndex implements SearchIndexLike {
  private readonly store: SearchDocumentStore;
  private readonly now: () => Date;
  private readonly weights: Bm25Weights;
  private readonly rerankWeights: RerankWeights;
  private readonly rerankDepth: number;
  private readonly parseOptions: QueryParseOptions;
  private readonly passage: PassageWeights;
  private readonly fieldCandidates: FieldCandidates;
  private readonly semanticFusion: SemanticFusion;
  private readonly leaveOutFlooredPhrases: boolean;
  private readonly pages: PageCache;
  /** Of each document object read (those kept are read again), its {@link candidateFields}. */
  private readonly candidateFields = new WeakMap<MatchedDocument, CandidateFields>();

  /** Creates the index's tables in `db` if needed (see {@link migrateSearchIndex}). */
  constructor(db: Database, options: SqliteSearchIndexOptions = {}) {
    migrateSearchIndex(db);
    const memory = options.mirror?.budgetBytes ?? DEFAULT_MIRROR_BUDGET_BYTES;
    this.store = new SearchDocumentStore(db, {
      budgetBytes: memory,
      delayMs: options.mirror?.delayMs ?? DEFAULT_MIRROR_DELAY_MS,
    });
    this.pages = new PageCache(options.pageCacheBytes ?? Math.floor(memory / 4));
    this.searchInSnapshot = db.transaction(
      (owner: string, params: SearchParams, vector: Float32Array | null) =>
        this.searchNow(owner, params, vector),
    );
    this.now = options.now ?? (() => new Date());
    this.weights = options.weights ?? DEFAULT_WEIGHTS;
    this.rerankWeights = options.rerank ?? DEFAULT_RERANK_WEIGHTS;
    this.rerankDepth = options.rerankDepth ?? DEFAULT_RERANK_DEPTH;
    this.passage = options.passage ?? DEFAULT_PASSAGE_WEIGHTS;
    this.fieldCandidates = options.fieldCandidates ?? DEFAULT_FIELD_CANDIDATES;
    this.semanticFusion = options.semanticFusion ?? DEFAULT_SEMANTIC_FUSION;
    this.leaveOutFlooredPhrases = options.leaveOutFlooredPhrases ?? true;
    this.parseOptions = {
      prefixLastWord: options.prefixLastWord,
      dropStopWords: options.dropStopWords,
      expandSynonyms: options.expandSynonyms,
      typedPhrases: options.typedPhrases,
    };
  }

  /** Indexes the page, replacing the content of an earlier document with the same (owner, collection, url). */
  upsert(doc: IndexedDocument): void {
    const body = stripMarkerCharacters(doc.body);
    this.store.upsert(
      {
        id: newDocumentId(),
        owner: doc.owner,
        collection: doc.collection,
        url: doc.url,
        site: siteOf(doc.url),
        title: doc.title === null ? null : stripMarkerCharacters(doc.title),
        headings: stripMarkerCharacters(doc.headings.join('\n')),
        body,
        summary: stripMarkerCharacters(summaryOf(doc.body.slice(0, OPENING_CHARACTERS))),
        indexedAt: this.now().toISOString(),
      },
      doc.runId,
      (doc.chunks ?? []).map((chunk) => ({
        text: stripMarkerCharacters(chunk.text),
        vector: vectorToBytes(chunk.vector),
      })),
      wordIndexToStore(doc, body),
    );
  }

  // The word-index backfill's reads and writes (search/word-backfill.ts): each one statement, tried
  // again while another connection (the batch write thread) holds the file's write lock.

  lastDocumentSeq(): Promise<number | null> {
    return retryWhileBusy(async () => this.store.lastDocumentSeq());
  }

  documentsWithoutWords(after: number, upTo: number): Promise<number[]> {
    return retryWhileBusy(async () => this.store.wordIndexlessSeqs(after, upTo));
  }

  analyzedBodyOf(seq: number): Promise<string | null> {
    return retryWhileBusy(async () => this.store.wordIndexlessBody(seq));
  }

  addWordIndex(seq: number, analyzed: string, words: Uint8Array): Promise<boolean> {
    return retryWhileBusy(async () => this.store.addWordIndexIfBody(seq, analyzed, words));
  }

  /**
   * Builds the first stage's in-memory copy now if there is none, and waits for it: true when it
   * answers (false when turned off, over its budget, or written meanwhile). For benches and tests;
   * the server lets it build in the background.
   */
  mirrorReady(): Promise<boolean> {
    return this.store.mirror.ready();
  }

  /** The last build of the in-memory copy (time, bytes, longest slice), or null. */
  mirrorBuild(): MirrorBuild | null {
    return this.store.mirror.lastBuild;
  }

  /** Bytes of pages kept across searches (page-cache.ts), for benches and tests. */
  keptPageBytes(): number {
    return this.pages.bytes;
  }

  /** Stops the in-memory copy's builds and drops it (the database stays open: its owner closes it). */
  close(): void {
    this.store.mirror.close();
  }

  /** Forgets a run; its documents that no other run indexed are deleted. */
  removeRun(runId: string): void {
    this.store.removeRun(runId);
  }

  /**
   * Ranked hits for `params.query` in the owner's collection: documents
   * holding any of its words (all of its `+must` and quoted clauses, none of
   * its `-not` ones), the best {@link SqliteSearchIndexOptions.rerankDepth}
   * re-ranked. Throws `ServiceError('invalid_request')` for a cursor of
   * another query.
   */
  search(owner: string, params: SearchParams, queryVector: Float32Array | null = null): SearchAnswer {
    return this.searchInSnapshot(owner, params, queryVector);
  }

  /** {@link search}'s reads, in one snapshot: a page's word index and body, read apart, are of one version. */
  private readonly searchInSnapshot: (
    owner: string,
    params: SearchParams,
    queryVector: Float32Array | null,
  ) => SearchAnswer;

  private searchNow(owner: string, params: SearchParams, queryVector: Float32Array | null): SearchAnswer {
    const scope = searchScopeOf(owner, params);
    const offset = params.cursor === undefined ? 0 : decodeSearchCursor(params.cursor, scope);
    const parsed = parseSearchQuery(params.query, this.parseOptions);
    const match = matchOf(parsed);
    if (match === null) return { data: [], next_cursor: null };
    this.store.mirror.beginSearch();
    // Inside the search's snapshot: the pages kept are those this search would read.
    this.pages.validate(this.store.version());

    // The same depth is re-ranked for every page of a query, so pages never disagree on the order.
    const depth = Math.max(this.rerankDepth, offset + params.limit + 1);
    const clauses = positiveClauses(parsed);
    // The any-word matches are ranked with the cheapest expression that scores them exactly as `match`.
    const ranking = rankingOf(parsed) ?? { expression: match, factor: 1 };
    const matchQuery = (expression: string) => ({
      owner,
      collection: params.collection,
      match: expression,
      urlPrefix: scope.urlPrefix,
      site: scope.site,
      weights: this.weights,
      limit: depth,
    });
    // The body's ranking statements leave out the phrases held by half of the index or more: bm25()
    // gives them its idf floor (they add ~nothing to a score) while their postings are the longest
    // to walk. Kept wherever else the ranking reads them (the small fields, priors, passages, snippets).
    // One phrase alone is never left out: nothing is asked then.
    const phrases = clauses.reduce((n, c) => n + 1 + c.alternatives.length, 0);
    const floored = this.leaveOutFlooredPhrases && phrases > 1 ? this.store.flooredPhrases() : () => false;
    const bodyRanking = rankingOf(parsed, (phrase) => !floored(phrase)) ?? ranking;
    // The small fields' best pages first: the any-word ranking then also gives the body scores of
    // those it ranked (most of them), which need no walk of their own.
    const byFields = this.fieldMatches(owner, params.collection, scope, ranking);
    let rankedScores: ReadonlyMap<number, number> | null = null;
    // The expression the body's any-word scores come from (see joinedByFields).
    let scoredBy = bodyRanking;
    const findAnyWord = () => {
      const asked = byFields.map((row) => row.seq);
      let found = this.store.findMatchesScoring(matchQuery(bodyRanking.expression), asked);
      // Fewer pages than the depth hold a scored phrase: those holding only left-out ones are
      // found too, ranked as before.
      if (bodyRanking.expression !== ranking.expression && found.rows.length < depth) {
        found = this.store.findMatchesScoring(matchQuery(ranking.expression), asked);
        scoredBy = ranking;
      }
      rankedScores = found.scores;
      return scaled(found.rows, scoredBy.factor);
    };
    // When enough documents hold every word, the best are among them: only they are scored (far
    // fewer rows than any-word on a large collection) and every one holds every clause. They are
    // counted first, without bm25 (whose set-up walks every phrase's postings) and up to `depth`:
    // when fewer than `depth` documents of the whole index hold them all, the collection's ranking
    // of them would be thrown away, and the any-word ranking is the only one paid.
    const allWords = clauses.length > 1 ? matchOf(parsed, true, (phrase) => !floored(phrase)) : null;
    const enough =
      allWords !== null && this.store.countMatches(allClausesOf(parsed) ?? allWords, depth) >= depth;
    let rows = allWords === null ? findAnyWord() : enough ? this.store.findMatches(matchQuery(allWords)) : [];
    const allHeld = allWords === null || rows.length >= depth;
    if (!allHeld) rows = findAnyWord();
    const head = rows.slice(0, this.rerankDepth);
    const tail = rows.slice(this.rerankDepth);
    const joined = this.joinedByFields(byFields, scoredBy, ranking, parsed, head, rankedScores);
    if (joined.size > 0) {
      for (let i = tail.length - 1; i >= 0; i -= 1) if (joined.has(tail[i]!.seq)) tail.splice(i, 1);
      for (const [seq, score] of joined) head.push({ seq, score });
    }
    const seqs = head.map((row) => row.seq);
    // Which clauses each page holds is only looked up when the coverage prior counts.
    const lookUp = (!allHeld || joined.size > 0) && this.rerankWeights.coverage > 0;
    const held = clauses.map((c) => (lookUp ? this.store.matchingOf(c.expression, seqs) : null));
    const documents = this.documents([...head, ...tail].map((row) => row.seq));
    const candidates: RankCandidate[] = [];
    for (const row of head) {
      const doc = documents.get(row.seq);
      if (doc === undefined) continue;
      candidates.push({
        key: row.seq,
        url: doc.url,
        title: doc.title,
        headings: doc.headings,
        lead: doc.lead,
        summary: doc.summary,
        lexical: row.score,
        held: held.map((set) => set === null || set.has(row.seq)),
        fields: this.fieldsOf(doc),
      });
    }
    let ranked = rerank(candidates, { clauses }, this.rerankWeights).map((r) => ({
      seq: r.candidate.key,
      score: r.score,
    }));
    // Each body lower-cased and searched once, for the passage step and the snippets; a body with a
    // word index (word-index.ts), when every needle of the query can be read from it, neither.
    const scans = new TextScans([...passageNeedles({ clauses }), ...snippetNeedles(parsed)]);
    // Of the best pages, those holding the question's words together in one passage first: the
    // bodies without a word index are read for it.
    let bodies = new Map<number, string>();
    if (this.passage.weight > 0 || this.passage.proximity > 0) {
      const best = ranked.slice(0, this.passage.depth).map((r) => r.seq);
      const words = scans.indexed ? this.wordIndexes(best) : new Map<number, WordIndex>();
      for (const [seq, index] of words) scans.index(seq, index);
      bodies = this.store.bodies(best.filter((seq) => !words.has(seq)));
    }
    ranked = rescoreByPassage(ranked, bodies, { clauses }, this.passage, scans);
    // Past the re-ranked depth, bm25 order, scores kept non-increasing.
    let floor = ranked.at(-1)?.score ?? Number.POSITIVE_INFINITY;
    for (const row of tail) {
      floor = Math.min(floor, row.score);
      ranked.push({ seq: row.seq, score: floor });
    }

    // The pages the words found (a page found only by meaning may show its nearest chunk).
    const lexical = new Set(ranked.map((r) => r.seq));
    // Semantic ranking, for a plain question (a +must, -not or quoted clause asks for exact words).
    const nearestText = new Map<number, string>();
    if (queryVector !== null && isPlainQuestion(parsed)) {
      const chunks = this.store.chunks({
        owner,
        collection: params.collection,
        urlPrefix: scope.urlPrefix,
        site: scope.site,
      });
      const nearest = nearestDocuments(
        queryVector,
        (function* () {
          for (const c of chunks) yield { key: c.seq, text: c.text, vector: vectorFromBytes(c.vector) };
        })(),
        depth,
      );
      if (nearest.length > 0) {
        for (const n of nearest) nearestText.set(n.key, n.text);
        ranked = fuseWithNearest(
          ranked.map((r) => r.seq),
          nearest,
          this.semanticFusion,
        ).map((f) => ({ seq: f.key, score: f.score }));
        for (const { seq } of ranked) if (!documents.has(seq)) documents.set(seq, this.store.document(seq));
      }
    }

    const page = ranked.slice(offset, offset + params.limit + 1);
    const data: SearchHit[] = [];
    const returned = page.slice(0, params.limit);
    const snippets = this.snippets(
      match,
      parsed,
      returned.map((r) => r.seq),
      lexical,
      bodies,
      documents,
      scans,
    );
    for (const { seq, score } of returned) {
      const doc = documents.get(seq);
      if (doc === undefined) continue;
      data.push({
        document_id: doc.id,
        url: doc.url,
        title: doc.title,
        snippet: snippetToHtml(snippets.get(seq) || chunkSnippet(nearestText.get(seq))),
        score: roundScore(score),
        collection: doc.collection,
        indexed_at: doc.indexed_at,
      });
    }
    const next_cursor = page.length > params.limit ? encodeSearchCursor(scope, offset + params.limit) : null;
    return { data, next_cursor };
  }

  /** The small fields' best pages for the query (see {@link FieldCandidates}), scores scaled as `ranking`'s. */
  private fieldMatches(owner: string, collection: string, scope: CursorScope, ranking: Ranking): MatchRow[] {
    const { depth, weights } = this.fieldCandidates;
    if (depth <= 0) return [];
    return scaled(
      this.store.findMatches({
        owner,
        collection,
        match: ranking.expression,
        urlPrefix: scope.urlPrefix,
        site: scope.site,
        weights: { title: weights.title, headings: weights.headings, body: weights.summary },
        limit: depth,
        index: 'fields',
      }),
      ranking.factor,
    );
  }

  /**
   * The small fields' best pages `byFields` that are not among `head`, with their lexical scores
   * (see {@link FieldCandidates}), in the small fields' order. Body scores are `ranking`'s (the
   * body's first stage, left-out phrases and all: `full` has them); `ranked`: those already known
   * (unscaled), or null.
   */
  private joinedByFields(
    byFields: readonly MatchRow[],
    ranking: Ranking,
    full: Ranking,
    parsed: ParsedQuery,
    head: readonly { seq: number }[],
    ranked: ReadonlyMap<number, number> | null,
  ): Map<number, number> {
    const joined = new Map<number, number>();
    const { scale } = this.fieldCandidates;
    const inHead = new Set(head.map((row) => row.seq));
    const rows = byFields.filter((row) => !inHead.has(row.seq));
    if (rows.length === 0) return joined;
    const unknown = rows.filter((row) => ranked?.has(row.seq) !== true).map((row) => row.seq);
    const body = this.store.scoresOf(ranking.expression, unknown, this.weights);
    for (const row of rows) {
      const score = ranked?.get(row.seq);
      if (score !== undefined) body.set(row.seq, score);
    }
    const unmatched = rows.filter((row) => !body.has(row.seq)).map((row) => row.seq);
    if (ranking.expression !== full.expression && unmatched.length > 0) {
      // The page's body holds only left-out phrases (worth ~0 to bm25: the small fields' score
      // decides), or a `-not` clause: only then is the whole expression asked.
      const hasNot = parsed.clauses.some((c) => c.mode === 'not');
      const scores = hasNot ? this.store.scoresOf(full.expression, unmatched, this.weights) : null;
      for (const seq of unmatched) {
        // Both expressions rank alike when a phrase is left out, factor 1 (see rankingOf).
        const score = scores === null ? 0 : scores.get(seq);
        if (score !== undefined) body.set(seq, score);
      }
    }
    for (const row of rows) {
      // Not matched by the body: it holds a `-not` clause outside its small fields.
      const bodyScore = mapped(body.get(row.seq), ranking.factor);
      if (bodyScore !== undefined) joined.set(row.seq, Math.max(bodyScore, scale * row.score));
    }
    return joined;
  }

  /**
   * Snippets of the returned pages `seqs` (see snippet.ts), built from their bodies: those the
   * passage step read (`bodies`), the others read in one statement. A page the words found
   * (`lexical`) whose body, title and headings hold none of them by the marking stems (the index's
   * Porter stems reach further) gets FTS5's snippet, as before; a page found only by meaning,
   * none (its nearest chunk is shown).
   */
  private snippets(
    match: string,
    parsed: ParsedQuery,
    seqs: readonly number[],
    lexical: ReadonlySet<number>,
    bodies: ReadonlyMap<number, string>,
    documents: ReadonlyMap<number, MatchedDocument | undefined>,
    scans: TextScans,
  ): Map<number, string> {
    const toRead = seqs.filter((seq) => !bodies.has(seq));
    // A page with a word index, when the snippet reads only the body's white space: its bytes
    // (utf8-text.ts), not the text made into a string.
    const inBytes = snippetsReadOnlyWhiteSpace(parsed)
      ? this.bodyTexts(toRead.filter((seq) => scans.hasIndex(seq)))
      : new Map<number, Utf8Text>();
    const unread = this.store.bodies(toRead.filter((seq) => !inBytes.has(seq)));
    const { snippets, unbuilt } = snippetsOfPages(
      parsed,
      seqs,
      (seq) => {
        const doc = documents.get(seq);
        if (doc === undefined) return undefined;
        const body = inBytes.get(seq) ?? bodies.get(seq) ?? unread.get(seq) ?? '';
        return { body, title: doc.title, headings: doc.headings };
      },
      scans,
    );
    const unmarked = unbuilt.filter((seq) => lexical.has(seq));
    for (const [seq, snippet] of this.store.snippets(match, unmarked)) snippets.set(seq, snippet);
    return snippets;
  }

  /** The documents of rows `seqs` ({@link SearchDocumentStore.documents}), those kept read from {@link pages}. */
  private documents(seqs: readonly number[]): Map<number, MatchedDocument | undefined> {
    const found = new Map<number, MatchedDocument | undefined>();
    const missing: number[] = [];
    for (const seq of seqs) {
      const doc = this.pages.document(seq);
      found.set(seq, doc);
      if (doc === undefined) missing.push(seq);
    }
    for (const [seq, doc] of this.store.documents(missing)) {
      found.set(seq, doc);
      if (doc !== undefined) this.pages.keepDocument(seq, doc);
    }
    return found;
  }

  /** What re-ranking reads of a document's fields, kept with a document kept (page-cache.ts). */
  private fieldsOf(doc: MatchedDocument): CandidateFields {
    let fields = this.candidateFields.get(doc);
    if (fields === undefined) {
      fields = candidateFields(doc);
      this.candidateFields.set(doc, fields);
    }
    return fields;
  }

  /** The word indexes of those of the rows `seqs` that have one ({@link SearchDocumentStore.wordIndexes}). */
  private wordIndexes(seqs: readonly number[]): Map<number, WordIndex> {
    const found = new Map<number, WordIndex>();
    const missing: number[] = [];
    for (const seq of seqs) {
      const words = this.pages.words(seq);
      if (words === undefined) missing.push(seq);
      else if (words !== null) found.set(seq, words);
    }
    const read = this.store.wordIndexes(missing);
    for (const seq of missing) {
      const bytes = read.get(seq);
      const words = bytes === undefined ? null : new WordIndex(bytes);
      // A page without one is kept as such only when it is there (a deleted one is not kept).
      if (words !== null) found.set(seq, words);
      if (words !== null || this.pages.document(seq) !== undefined)
        this.pages.keepWords(seq, words, bytes?.byteLength ?? 0);
    }
    return found;
  }

  /** The bodies of rows `seqs` as their UTF-8 bytes ({@link utf8Text}; a body it cannot read is left out). */
  private bodyTexts(seqs: readonly number[]): Map<number, Utf8Text> {
    const found = new Map<number, Utf8Text>();
    const missing: number[] = [];
    for (const seq of seqs) {
      const text = this.pages.text(seq);
      if (text === undefined) missing.push(seq);
      else {
        text.readAgain();
        found.set(seq, text);
      }
    }
    for (const [seq, bytes] of this.store.bodyBytes(missing)) {
      const text = utf8Text(bytes);
      if (text === null) continue;
      found.set(seq, text);
      this.pages.keepText(seq, text, bytes.length);
    }
    return found;
  }

  /** The owner's collections, by name, with document counts and the last indexing time. */
  collections(owner: string): { name: string; document_count: number; updated_at: string | null }[] {
    return this.store.collections(owner);
  }
}

/** The rows with their scores multiplied by `factor` (a power of two: exact). */
function scaled(rows: MatchRow[], factor: number): MatchRow[] {
  return factor === 1 ? rows : rows.map((row) => ({ seq: row.seq, score: row.score * factor }));
}

function mapped(score: number | undefined, factor: number): number | undefined {
  return score === undefined ? undefined : score * factor;
}

/** No `+must`, `-not` or quoted clause: a question the vector ranking may answer too. */
export function isPlainQuestion(parsed: ParsedQuery): boolean {
  return parsed.clauses.every((c) => c.mode === 'should');
}

/** The start of the nearest chunk's passage (its title line left out), for a hit found only by meaning. */
export function chunkSnippet(text: string | undefined): string {
  if (text === undefined) return '';
  const passage = text.includes('\n') ? text.slice(text.indexOf('\n') + 1) : text;
  return passage.length > 200
    ? `${passage.slice(0, 200).replace(/\s+\S*$/, '')}${SNIPPET_ELLIPSIS}`
    : passage;
}

/** A new `doc_…` id: 16 random bytes, base64url. */
function newDocumentId(): string {
  return `doc_${randomBytes(16).toString('base64url')}`;
}

/** The host of a URL with its port when not the scheme's default, lower-cased (what the `site` filter compares). */
export function siteOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}

/** Six significant digits are plenty to compare within one answer, and keep JSON short. */
function roundScore(score: number): number {
  return Number.isFinite(score) ? Number(score.toPrecision(6)) : 0;
}
