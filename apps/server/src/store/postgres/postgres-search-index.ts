import { randomBytes } from 'node:crypto';
import type { SearchAnswer, SearchHit, SearchParams } from '@webdata/contract';
import type pg from 'pg';
import {
  fuseWithNearest,
  nearestDocuments,
  vectorFromBytes,
  vectorToBytes,
} from '../../search/embeddings.js';
import { stripMarkerCharacters } from '../../search/marker-characters.js';
import { DEFAULT_PASSAGE_WEIGHTS, passageNeedles, rescoreByPassage } from '../../search/passage.js';
import {
  neighbourPhrases,
  type ParsedQuery,
  parseSearchQuery,
  positiveClauses,
  type QueryClause,
} from '../../search/query-parser.js';
import {
  LEAD_CHARACTERS,
  OPENING_CHARACTERS,
  type RankCandidate,
  rerank,
  summaryOf,
} from '../../search/rerank.js';
import {
  type CursorScope,
  decodeSearchCursor,
  encodeSearchCursor,
  searchScopeOf,
} from '../../search/search-cursor.js';
import { snippetNeedles, snippetsOfPages } from '../../search/snippet.js';
import { snippetToHtml } from '../../search/snippet-html.js';
import {
  chunkSnippet,
  DEFAULT_FIELD_CANDIDATES,
  type FieldCandidates,
  isPlainQuestion,
  siteOf,
} from '../../search/sqlite-search-index.js';
import { ANALYZED_CHARACTERS, TextScans } from '../../search/text-scans.js';
import type { IndexedDocument, SearchIndexLike } from '../../search/types.js';
import { WordIndex, wordIndexToStore } from '../../search/word-index.js';
import { SNIPPET_CLOSE, SNIPPET_ELLIPSIS, SNIPPET_OPEN } from '../sqlite/search/index.js';
import { query, transaction } from './connection.js';
import { SEARCH_CONFIG, smallFieldsTsvectorSql } from './search-small-fields.js';

/** Field weights, as the SQLite index's `bm25()` column weights: title, headings, body. */
const FIELD_WEIGHTS = { A: 10, B: 4, D: 1 } as const;
/** BM25's term-frequency saturation and length normalisation (the usual values, FTS5's too). */
const K1 = 1.2;
const B = 0.75;
/** How many of the best BM25 matches are re-ranked, as on SQLite. */
const RERANK_DEPTH = 100;
/** How many documents a process indexes between two foldings of a collection's frequency rows. */
const COMPACT_EVERY = 500;
/** Text search configuration: Snowball English stemming, as the SQLite index's Porter stemmer. */
const CONFIG = SEARCH_CONFIG;

/**
 * Collection search on PostgreSQL, ranked by the SQLite index's rules: the
 * same query syntax (`parseSearchQuery`: any word, `+must` and quoted
 * clauses required, `-not` excluded), BM25 over weighted fields (title,
 * headings, body as tsvector weights A, B, D) with term document frequencies
 * kept at indexing time (in the transaction that indexes, as rows added and
 * taken away), and the best matches re-ranked by the same `rerank`.
 */
export class PostgresSearchIndex implements SearchIndexLike {
  /** `fieldCandidates`: the second candidate query over the small fields, as on SQLite (tests turn it off). */
  constructor(
    private readonly pool: pg.Pool,
    private readonly fieldCandidates: FieldCandidates = DEFAULT_FIELD_CANDIDATES,
  ) {}

  /** Indexing happens inside the store's result transaction ({@link upsertIn}); this entry point is for tools. */
  async upsert(doc: IndexedDocument): Promise<void> {
    await transaction(this.pool, (client) => this.upsertIn(client, doc));
  }

  async removeRun(runId: string): Promise<void> {
    await transaction(this.pool, (client) => this.removeRunIn(client, runId));
  }

  /**
   * Indexes or replaces the document of (owner, collection, url) in the
   * caller's transaction, keeping the collection's term document frequencies,
   * document count and total length in step.
   */
  async upsertIn(client: pg.PoolClient, doc: IndexedDocument): Promise<void> {
    const key = [doc.owner, doc.collection, doc.url];
    await this.forgetStats(client, 'WHERE owner = $1 AND collection = $2 AND url = $3', key);
    const title = doc.title === null ? null : stripMarkerCharacters(doc.title);
    const body = stripMarkerCharacters(doc.body);
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO search_documents (id, owner, collection, url, site, title, headings, body, indexed_at, tsv, length,
         summary, fields_tsv, fields_length, words)
       SELECT $4, $1, $2, $3, $5, $6, $7, $8, now(), v.tsv, length(v.tsv), $9, f.tsv, length(f.tsv), $10
       FROM (SELECT setweight(to_tsvector('${CONFIG}', coalesce($6, '')), 'A')
                 || setweight(to_tsvector('${CONFIG}', $7), 'B')
                 || setweight(to_tsvector('${CONFIG}', $8), 'D') AS tsv) v,
            (SELECT ${smallFieldsTsvectorSql('$6::text', '$7::text', '$9::text')} AS tsv) f
       ON CONFLICT (owner, collection, url) DO UPDATE SET
         site = excluded.site, title = excluded.title, headings = excluded.headings, body = excluded.body,
         indexed_at = excluded.indexed_at, tsv = excluded.tsv, length = excluded.length,
         summary = excluded.summary, fields_tsv = excluded.fields_tsv, fields_length = excluded.fields_length,
         words = excluded.words
       RETURNING id`,
      [
        ...key,
        `doc_${randomBytes(16).toString('base64url')}`,
        siteOf(doc.url),
        title,
        stripMarkerCharacters(doc.headings.join('\n')),
        body,
        stripMarkerCharacters(summaryOf(doc.body.slice(0, OPENING_CHARACTERS))),
        wordIndexToStore(doc, body),
      ],
    );
    const id = rows[0]!.id;
    await this.countStats(client, id, 1);
    // The chunks of the earlier content are stale whether or not this content was embedded.
    await client.query('DELETE FROM search_chunks WHERE document_id = $1', [id]);
    if (doc.chunks && doc.chunks.length > 0) {
      await client.query(
        `INSERT INTO search_chunks (document_id, n, text, vector)
         SELECT $1, u.n - 1, u.text, u.vector FROM unnest($2::text[], $3::bytea[]) WITH ORDINALITY AS u(text, vector, n)`,
        [
          id,
          doc.chunks.map((c) => stripMarkerCharacters(c.text)),
          doc.chunks.map((c) => vectorToBytes(c.vector)),
        ],
      );
    }
    await client.query(
      'INSERT INTO search_document_runs (document_id, run_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [id, doc.runId],
    );
  }

  // The word-index backfill's reads and writes (search/word-backfill.ts), each one statement.

  async lastDocumentSeq(): Promise<number | null> {
    const { rows } = await query<{ seq: string | null }>(
      this.pool,
      'SELECT max(seq) AS seq FROM search_documents',
    );
    return rows[0]?.seq == null ? null : Number(rows[0].seq);
  }

  async documentsWithoutWords(after: number, upTo: number): Promise<number[]> {
    const { rows } = await query<{ seq: string }>(
      this.pool,
      'SELECT seq FROM search_documents WHERE seq > $1 AND seq <= $2 AND words IS NULL ORDER BY seq',
      [after, upTo],
    );
    return rows.map((row) => Number(row.seq));
  }

  /** The body's first `ANALYZED_CHARACTERS` characters (at least as many UTF-16 code units: all an index is built from). */
  async analyzedBodyOf(seq: number): Promise<string | null> {
    const { rows } = await query<{ body: string }>(
      this.pool,
      `SELECT left(body, ${ANALYZED_CHARACTERS}) AS body FROM search_documents WHERE seq = $1 AND words IS NULL`,
      [seq],
    );
    return rows[0]?.body ?? null;
  }

  /**
   * Only a row still without an index whose body still begins as read: a writer that changed the
   * body meanwhile holds the row's lock until it commits, and this statement then reads the row
   * as it committed it (READ COMMITTED), so an index is never given to a body it was not built
   * from. The update leaves the body alone (the stale-index trigger is not run).
   */
  async addWordIndex(seq: number, analyzed: string, words: Uint8Array): Promise<boolean> {
    const { rowCount } = await query(
      this.pool,
      `UPDATE search_documents SET words = $2
       WHERE seq = $1 AND words IS NULL AND left(body, ${ANALYZED_CHARACTERS}) = $3`,
      [seq, words, analyzed],
    );
    return rowCount === 1;
  }

  /** Unlinks a run and deletes the documents no other run indexed, in the caller's transaction. */
  async removeRunIn(client: pg.PoolClient, runId: string): Promise<void> {
    const { rows } = await client.query<{ document_id: string }>(
      'DELETE FROM search_document_runs WHERE run_id = $1 RETURNING document_id',
      [runId],
    );
    for (const { document_id: id } of rows) {
      const orphan =
        'WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM search_document_runs WHERE document_id = $1)';
      if (await this.forgetStats(client, orphan, [id])) {
        await client.query(`DELETE FROM search_documents ${orphan}`, [id]);
      }
    }
  }

  /** Takes the matching document (if any) out of its collection's statistics; true when there was one. */
  private async forgetStats(client: pg.PoolClient, where: string, values: unknown[]): Promise<boolean> {
    const { rows } = await client.query<{ id: string }>(
      `SELECT id FROM search_documents ${where} FOR UPDATE`,
      values,
    );
    if (!rows[0]) return false;
    await this.countStats(client, rows[0].id, -1);
    return true;
  }

  /**
   * Adds (`sign` 1) or removes (-1) a document's lexemes to its collection's
   * document frequencies: new rows only, so concurrent indexers never wait on
   * each other.
   */
  private async countStats(client: pg.PoolClient, documentId: string, sign: 1 | -1): Promise<void> {
    await client.query(
      `INSERT INTO search_term_counts (owner, collection, term, documents)
       SELECT d.owner, d.collection, t.term, $2
       FROM search_documents d, unnest(tsvector_to_array(d.tsv)) AS t(term)
       WHERE d.id = $1`,
      [documentId, sign],
    );
    if (++this.indexed % COMPACT_EVERY === 0) this.compactSoon(documentId);
  }

  /** Documents indexed by this process: every {@link COMPACT_EVERY}th folds its collection's counts. */
  private indexed = 0;

  /**
   * Folds a collection's frequency rows into one per term, in a transaction of
   * its own after the indexing one (best effort: a failure only leaves more rows).
   */
  private compactSoon(documentId: string): void {
    setImmediate(() => {
      transaction(this.pool, async (client) => {
        const { rows } = await client.query<{ owner: string; collection: string }>(
          'SELECT owner, collection FROM search_documents WHERE id = $1',
          [documentId],
        );
        if (!rows[0]) return;
        // One compaction of a collection at a time; others skip (the lock is released on commit).
        const { rows: lock } = await client.query<{ got: boolean }>(
          'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS got',
          [JSON.stringify(['compact', rows[0].owner, rows[0].collection])],
        );
        if (!lock[0]?.got) return;
        await client.query(
          `WITH gone AS (
             DELETE FROM search_term_counts WHERE owner = $1 AND collection = $2 RETURNING term, documents)
           INSERT INTO search_term_counts (owner, collection, term, documents)
           SELECT $1, $2, term, sum(documents) FROM gone GROUP BY term HAVING sum(documents) <> 0`,
          [rows[0].owner, rows[0].collection],
        );
      }).catch(() => {});
    });
  }

  async search(
    owner: string,
    params: SearchParams,
    queryVector: Float32Array | null = null,
  ): Promise<SearchAnswer> {
    const scope = searchScopeOf(owner, params);
    const offset = params.cursor === undefined ? 0 : decodeSearchCursor(params.cursor, scope);
    const parsed = parseSearchQuery(params.query);
    const clauses = positiveClauses(parsed);
    if (clauses.length === 0) return { data: [], next_cursor: null };
    // The same depth is re-ranked for every page of a query, so pages never disagree on the order.
    const depth = Math.max(RERANK_DEPTH, offset + params.limit + 1);
    // As on SQLite: when enough documents hold every word, only they are ranked.
    let rows = await this.ranked(scope, parsed, depth, clauses.length > 1);
    if (clauses.length > 1 && rows.length < depth) rows = await this.ranked(scope, parsed, depth, false);
    const head = rows.slice(0, RERANK_DEPTH);
    const joined = await this.joinedByFields(scope, parsed, head);
    if (joined.length > 0) {
      const seqs = new Set(joined.map((row) => row.seq));
      rows = [...head, ...joined, ...rows.slice(RERANK_DEPTH).filter((row) => !seqs.has(row.seq))];
      head.push(...joined);
    }
    const candidates: RankCandidate[] = head.map((row) => ({
      key: row.seq,
      url: row.url,
      title: row.title,
      headings: row.headings,
      lead: row.lead,
      summary: row.summary,
      lexical: row.score,
      held: row.held,
    }));
    let ranked = rerank(candidates, { clauses }).map((r) => ({ seq: r.candidate.key, score: r.score }));
    // As on SQLite: of the best pages, those holding the question's words together in one passage first.
    const best = ranked.slice(0, DEFAULT_PASSAGE_WEIGHTS.depth).map((r) => r.seq);
    // As on SQLite: each body lower-cased and searched once, for the passage step and the snippets;
    // a body with a word index, when the query's needles can all be read from it, neither (not read).
    const scans = new TextScans([...passageNeedles({ clauses }), ...snippetNeedles(parsed)]);
    const bodies = await this.textsOf(best, scans);
    ranked = rescoreByPassage(ranked, bodies, { clauses }, DEFAULT_PASSAGE_WEIGHTS, scans);
    // Past the re-ranked depth, BM25 order, scores kept non-increasing.
    let floor = ranked.at(-1)?.score ?? Number.POSITIVE_INFINITY;
    for (const row of rows.slice(head.length)) {
      floor = Math.min(floor, row.score);
      ranked.push({ seq: row.seq, score: floor });
    }
    // Semantic ranking, as on SQLite: a plain question's lexical order fused with the nearest chunks'.
    const nearestText = new Map<number, string>();
    if (queryVector !== null && isPlainQuestion(parsed)) {
      const nearest = nearestDocuments(queryVector, await this.chunks(scope), depth);
      if (nearest.length > 0) {
        for (const n of nearest) nearestText.set(n.key, n.text);
        ranked = fuseWithNearest(
          ranked.map((r) => r.seq),
          nearest,
        ).map((f) => ({ seq: f.key, score: f.score }));
      }
    }
    const page = ranked.slice(offset, offset + params.limit + 1);
    const shown = page.slice(0, params.limit);
    const bySeq = new Map<number, DocumentRow>(rows.map((row) => [row.seq, row]));
    const missing = shown.map((hit) => hit.seq).filter((seq) => !bySeq.has(seq));
    for (const row of await this.documentsOf(missing)) bySeq.set(row.seq, row);
    // As on SQLite (search/snippet.ts): snippets built from the text; `ts_headline` only for a page
    // the words found where the marking stems find none of them.
    // A page's body and word index read in one statement: of one version, whatever was written since.
    for (const [seq, body] of await this.textsOf(
      shown.map((hit) => hit.seq).filter((seq) => !bodies.has(seq)),
      scans,
      true,
    ))
      bodies.set(seq, body);
    const { snippets: built, unbuilt } = snippetsOfPages(
      parsed,
      shown.map((hit) => hit.seq),
      (seq) => {
        const row = bySeq.get(seq)!;
        return { body: bodies.get(seq) ?? '', title: row.title, headings: row.headings };
      },
      scans,
    );
    const lexical = new Set(rows.map((row) => row.seq));
    const headlines = await this.snippets(
      parsed,
      unbuilt.filter((seq) => lexical.has(seq)),
    );
    const data: SearchHit[] = shown.map(({ seq, score }) => {
      const row = bySeq.get(seq)!;
      const headline = headlines.get(seq);
      return {
        document_id: row.id,
        url: row.url,
        title: row.title,
        snippet: snippetToHtml(
          built.get(seq) ??
            (headline === undefined
              ? chunkSnippet(nearestText.get(seq))
              : headline.body.includes(SNIPPET_OPEN)
                ? headline.body
                : headline.any),
        ),
        score: Number(score.toPrecision(6)),
        collection: row.collection,
        indexed_at: row.indexed_at.toISOString(),
      };
    });
    return {
      data,
      next_cursor: page.length > params.limit ? encodeSearchCursor(scope, offset + params.limit) : null,
    };
  }

  /**
   * As on SQLite (`FieldCandidates`): the small fields' best pages for the query (any of its
   * words) that are not among `head`, each scored by the larger of its body's BM25 and `scale` ×
   * its small fields' BM25, in the small fields' order.
   */
  private async joinedByFields(
    scope: CursorScope,
    parsed: ParsedQuery,
    head: readonly RankedRow[],
  ): Promise<RankedRow[]> {
    const { depth, scale } = this.fieldCandidates;
    if (depth <= 0) return [];
    const inHead = new Set(head.map((row) => row.seq));
    const fields = (await this.ranked(scope, parsed, depth, false, { index: 'fields' })).filter(
      (row) => !inHead.has(row.seq),
    );
    if (fields.length === 0) return [];
    const only = fields.map((row) => row.seq);
    const body = new Map(
      (await this.ranked(scope, parsed, depth, false, { index: 'body', only })).map((row) => [row.seq, row]),
    );
    // A page the body does not match holds a `-not` clause outside its small fields: left out.
    return fields.flatMap((row) => {
      const scored = body.get(row.seq);
      return scored === undefined ? [] : [{ ...scored, score: Math.max(scored.score, scale * row.score) }];
    });
  }

  /** The embedded chunks of the scope's collection (its filters applied). */
  private async chunks(scope: CursorScope): Promise<{ key: number; text: string; vector: Float32Array }[]> {
    const args: unknown[] = [scope.owner, scope.collection];
    let filters = '';
    if (scope.urlPrefix !== undefined) {
      args.push(scope.urlPrefix);
      filters += ` AND starts_with(d.url, $${args.length})`;
    }
    if (scope.site !== undefined) {
      args.push(scope.site);
      filters += ` AND d.site = $${args.length}`;
    }
    const { rows } = await query<{ seq: string; text: string; vector: Buffer }>(
      this.pool,
      `SELECT d.seq, c.text, c.vector FROM search_documents d JOIN search_chunks c ON c.document_id = d.id
       WHERE d.owner = $1 AND d.collection = $2${filters}`,
      args,
    );
    return rows.map((row) => ({ key: Number(row.seq), text: row.text, vector: vectorFromBytes(row.vector) }));
  }

  /** The documents of rows `seqs` (hits found only by the vector ranking). */
  /**
   * The bodies of the documents `seqs`, by row, as the search reads them (as on SQLite): at most
   * their first {@link ANALYZED_CHARACTERS} + 1 characters.
   */
  private async bodiesOf(seqs: number[]): Promise<Map<number, string>> {
    if (seqs.length === 0) return new Map();
    const { rows } = await query<{ seq: string; body: string }>(
      this.pool,
      `SELECT seq, left(body, ${ANALYZED_CHARACTERS + 1}) AS body FROM search_documents WHERE seq = ANY($1::bigint[])`,
      [seqs],
    );
    return new Map(rows.map((row) => [Number(row.seq), row.body]));
  }

  /**
   * The bodies of the documents `seqs` (as {@link bodiesOf}), but when every needle of the query can
   * be read from a word index (`scans.indexed`), those with one give `scans` their index instead,
   * and their body is read only with `withBodies` (the snippets': its text, with the index of the
   * same version).
   */
  private async textsOf(seqs: number[], scans: TextScans, withBodies = false): Promise<Map<number, string>> {
    if (!scans.indexed) return this.bodiesOf(seqs);
    if (seqs.length === 0) return new Map();
    const body = `left(body, ${ANALYZED_CHARACTERS + 1})`;
    const { rows } = await query<{ seq: string; words: Buffer | null; body: string | null }>(
      this.pool,
      `SELECT seq, words, ${withBodies ? body : `CASE WHEN words IS NULL THEN ${body} END`} AS body
       FROM search_documents WHERE seq = ANY($1::bigint[])`,
      [seqs],
    );
    const bodies = new Map<number, string>();
    for (const row of rows) {
      const seq = Number(row.seq);
      scans.index(seq, row.words === null ? null : new WordIndex(row.words));
      if (row.body !== null) bodies.set(seq, row.body);
    }
    return bodies;
  }

  private async documentsOf(seqs: number[]): Promise<DocumentRow[]> {
    if (seqs.length === 0) return [];
    const { rows } = await query<DocumentRow>(
      this.pool,
      'SELECT seq, id, url, title, headings, collection, indexed_at FROM search_documents WHERE seq = ANY($1::bigint[])',
      [seqs],
    );
    return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  }

  /**
   * `ts_headline`'s highlighted passages of the body (and of the title and headings) of the
   * documents `seqs`: for the pages whose words the snippet builder's stems do not find.
   */
  private async snippets(
    parsed: ParsedQuery,
    seqs: number[],
  ): Promise<Map<number, { body: string; any: string }>> {
    if (seqs.length === 0) return new Map();
    const args: unknown[] = [seqs];
    const bind = (value: unknown) => {
      args.push(value);
      return `$${args.length}`;
    };
    const highlighted = `(${positiveClauses(parsed)
      .map((c) => tsqueryOf(c, bind))
      .join(' || ')})`;
    const options = bind(HEADLINE_OPTIONS);
    const { rows } = await query<{ seq: number; body: string; any: string }>(
      this.pool,
      `SELECT d.seq, ts_headline('${CONFIG}', d.body, ${highlighted}, ${options}) AS body,
         ts_headline('${CONFIG}', coalesce(d.title, '') || E'\\n' || d.headings, ${highlighted}, ${options}) AS any
       FROM search_documents d WHERE d.seq = ANY($1::bigint[])`,
      args,
    );
    return new Map(rows.map((row) => [Number(row.seq), { body: row.body, any: row.any }]));
  }

  /**
   * The best `limit` documents by BM25 that the query selects (any of its
   * words, or all with `allWords`; all `must` clauses, no `not` clause), with
   * which positive clauses each holds. Clauses are bound as text and turned
   * into tsqueries by PostgreSQL, so no input is query syntax.
   */
  private async ranked(
    scope: CursorScope,
    parsed: ParsedQuery,
    limit: number,
    allWords: boolean,
    over: RankedOver = { index: 'body' },
  ): Promise<RankedRow[]> {
    // The small fields' tsvector and length, or the whole document's; and each weight class's weight.
    const tsv = over.index === 'fields' ? 'fields_tsv' : 'tsv';
    const length = over.index === 'fields' ? 'fields_length' : 'length';
    const w = over.index === 'fields' ? this.fieldCandidates.weights : undefined;
    const weightOf =
      w === undefined
        ? `CASE w WHEN 'A' THEN ${FIELD_WEIGHTS.A} WHEN 'B' THEN ${FIELD_WEIGHTS.B} ELSE ${FIELD_WEIGHTS.D} END`
        : `CASE w WHEN 'A' THEN ${Number(w.title)} WHEN 'B' THEN ${Number(w.headings)} ELSE ${Number(w.summary)} END`;
    const args: unknown[] = [scope.owner, scope.collection];
    const bind = (value: unknown) => {
      args.push(value);
      return `$${args.length}`;
    };
    const positive = positiveClauses(parsed);
    const clauses = positive.map((clause) => tsqueryOf(clause, bind));
    const must = parsed.clauses.filter((c) => c.mode === 'must').map((clause) => tsqueryOf(clause, bind));
    const not = parsed.clauses.filter((c) => c.mode === 'not').map((clause) => tsqueryOf(clause, bind));
    const match = [
      `(${clauses.join(allWords ? ' && ' : ' || ')})`,
      ...must,
      ...not.map((q) => `!!${q}`),
    ].join(' && ');
    // Neighbouring words as phrases score as extra terms, as in the SQLite index's bm25().
    // Their document frequency is counted among the candidates: a few documents asked for by `only`
    // would make every phrase rare, so those are scored without them.
    const phrases =
      over.only === undefined
        ? neighbourPhrases(parsed).map((clause) => `d.${tsv} @@ ${tsqueryOf(clause, bind)}`)
        : [];
    const pairs = phrases.length === 0 ? 'ARRAY[]::boolean[]' : `ARRAY[${phrases.join(', ')}]`;
    const filters = [
      scope.urlPrefix === undefined ? '' : ` AND starts_with(d.url, ${bind(scope.urlPrefix)})`,
      scope.site === undefined ? '' : ` AND d.site = ${bind(scope.site)}`,
      over.only === undefined ? '' : ` AND d.seq = ANY(${bind(over.only)}::bigint[])`,
    ].join('');
    // The query's own lexemes (stemmed as indexed) and, for prefix clauses, their prefixes.
    const exact = bind(positive.flatMap((c) => [...(c.prefix ? [] : c.words), ...c.alternatives]).join(' '));
    // Prefix words (letters, digits and marks: nothing LIKE would read as a pattern), as typed and stemmed.
    const prefixWords = bind(positive.filter((c) => c.prefix).map((c) => c.words.at(-1)!));
    // Each step is MATERIALIZED so the plan is this one whatever the statistics say: the matching
    // documents first (GIN index), then their query lexemes, then one frequency lookup per lexeme.
    // A term's document frequency: the collection's kept counts for the body; for the small fields,
    // counted among the candidates, which are every document holding any of the words there.
    const frequencies =
      over.index === 'fields'
        ? `
        SELECT lexeme, count(DISTINCT seq)::float8 AS df FROM matches GROUP BY lexeme`
        : `
        SELECT m.lexeme, coalesce((
          SELECT sum(t.documents) FROM search_term_counts t
          WHERE t.owner = $1 AND t.collection = $2 AND t.term = m.lexeme
        ), 0)::float8 AS df
        FROM (SELECT DISTINCT lexeme FROM matches) m`;
    const sql = `
      WITH stats AS MATERIALIZED (
        SELECT count(*)::float8 AS n, greatest(coalesce(avg(${length}), 1), 1)::float8 AS avgdl
        FROM search_documents WHERE owner = $1 AND collection = $2
      ), q AS MATERIALIZED (SELECT ${match} AS query),
      terms AS MATERIALIZED (
        SELECT unnest(tsvector_to_array(to_tsvector('${CONFIG}', ${exact}))) AS term
      ), prefixes AS MATERIALIZED (
        SELECT unnest(${prefixWords}::text[]) AS p
        UNION SELECT unnest(tsvector_to_array(to_tsvector('${CONFIG}', array_to_string(${prefixWords}::text[], ' '))))
      ), candidates AS MATERIALIZED (
        SELECT d.seq, d.${tsv} AS tsv, d.${length} AS length, ${pairs} AS pairs FROM search_documents d, q
        WHERE d.owner = $1 AND d.collection = $2 AND d.${tsv} @@ q.query${filters}
      ), pair_matches AS MATERIALIZED (
        SELECT c.seq, c.length, p.i FROM candidates c, generate_subscripts(c.pairs, 1) AS p(i) WHERE c.pairs[p.i]
      ), pair_scores AS MATERIALIZED (
        -- A neighbour phrase scores as one more term (tf 1): its pages all hold its words, so all are candidates.
        SELECT pm.seq, sum(
          ln(1 + (stats.n - f.df + 0.5) / (f.df + 0.5))
          * ${K1 + 1} / (1 + ${K1} * (1 - ${B} + ${B} * pm.length / stats.avgdl))
        ) AS score
        FROM pair_matches pm
        JOIN (SELECT i, count(*)::float8 AS df FROM pair_matches GROUP BY i) f USING (i)
        CROSS JOIN stats
        GROUP BY pm.seq
      ), matches AS MATERIALIZED (
        SELECT c.seq, c.length, u.lexeme, (
          SELECT sum(${weightOf})
          FROM unnest(u.weights) AS w
        )::float8 AS tf
        FROM candidates c, unnest(c.tsv) AS u
        WHERE u.lexeme IN (SELECT term FROM terms)
          OR EXISTS (SELECT 1 FROM prefixes WHERE starts_with(u.lexeme, prefixes.p))
      ), frequencies AS MATERIALIZED (${frequencies}
      ), scored AS (
        SELECT m.seq, sum(
          ln(1 + (stats.n - f.df + 0.5) / (f.df + 0.5))
          * (m.tf * ${K1 + 1}) / (m.tf + ${K1} * (1 - ${B} + ${B} * m.length / stats.avgdl))
        ) AS score
        FROM matches m JOIN frequencies f USING (lexeme) CROSS JOIN stats
        GROUP BY m.seq
      ), page AS MATERIALIZED (
        SELECT s.seq, s.score + coalesce(ps.score, 0) AS score
        FROM scored s LEFT JOIN pair_scores ps USING (seq)
        ORDER BY 2 DESC, s.seq LIMIT ${bind(limit)}
      )
      SELECT d.seq, d.id, d.url, d.title, d.headings, left(d.body, ${LEAD_CHARACTERS}) AS lead, d.summary, d.collection, d.indexed_at, p.score,
        ARRAY[${clauses.map((c) => `d.tsv @@ ${c}`).join(', ')}] AS held
      FROM page p JOIN search_documents d ON d.seq = p.seq
      ORDER BY p.score DESC, d.seq`;
    const { rows } = await query<RankedRow>(this.pool, sql, args);
    return rows.map((row) => ({ ...row, seq: Number(row.seq), score: Number(row.score) }));
  }

  async collections(
    owner: string,
  ): Promise<{ name: string; document_count: number; updated_at: string | null }[]> {
    const { rows } = await query<{ name: string; document_count: number; updated_at: Date | null }>(
      this.pool,
      `SELECT collection AS name, count(*)::int AS document_count, max(indexed_at) AS updated_at
       FROM search_documents WHERE owner = $1 GROUP BY collection ORDER BY collection`,
      [owner],
    );
    return rows.map((row) => ({ ...row, updated_at: row.updated_at?.toISOString() ?? null }));
  }
}

/** Which tsvector {@link PostgresSearchIndex} ranks by, and optionally which documents only. */
interface RankedOver {
  /** `body`: title, headings and body (`tsv`); `fields`: title, headings and summary (`fields_tsv`). */
  index: 'body' | 'fields';
  /** Only these documents (by `seq`) are ranked. */
  only?: number[];
}

/** What an answer's hit shows of its document. */
interface DocumentRow {
  seq: number;
  id: string;
  url: string;
  title: string | null;
  /** The headings, one a line (what a snippet falls back on when only they match). */
  headings: string;
  collection: string;
  indexed_at: Date;
}

interface RankedRow {
  seq: number;
  id: string;
  url: string;
  title: string | null;
  headings: string;
  /** The body's first LEAD_CHARACTERS characters. */
  lead: string;
  /** The page's summary as it was indexed. */
  summary: string;
  collection: string;
  indexed_at: Date;
  score: number;
  /** Per positive clause: the document holds it. */
  held: boolean[];
}

/** `ts_headline` marks matches with the same control characters as the SQLite index's snippets. */
const HEADLINE_OPTIONS = `StartSel=${SNIPPET_OPEN}, StopSel=${SNIPPET_CLOSE}, FragmentDelimiter=${SNIPPET_ELLIPSIS}, MaxFragments=2, MaxWords=30, MinWords=12`;

/**
 * A clause as a tsquery expression over bound text: a phrase, a word, or a
 * prefix. A prefix matches lexemes starting with the word as typed or with
 * its stem (`retries*` → `retri:*`, since indexed words are stemmed).
 */
function tsqueryOf(clause: QueryClause, bind: (value: unknown) => string): string {
  if (clause.alternatives.length > 0) {
    const alternatives = clause.alternatives.map((w) => `phraseto_tsquery('${CONFIG}', ${bind(w)})`);
    return `(${[tsqueryOf({ ...clause, alternatives: [] }, bind), ...alternatives].join(' || ')})`;
  }
  if (clause.prefix) {
    const head = clause.words.slice(0, -1).join(' ');
    // Words hold letters, digits and marks only (parseSearchQuery), so `word:*` is safe tsquery text.
    const word = bind(`${clause.words.at(-1)}:*`);
    const last = `(to_tsquery('${CONFIG}', ${word}) || to_tsquery('simple', ${word}))`;
    return head ? `(phraseto_tsquery('${CONFIG}', ${bind(head)}) <-> ${last})` : last;
  }
  return `phraseto_tsquery('${CONFIG}', ${bind(clause.words.join(' '))})`;
}
