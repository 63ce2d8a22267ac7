import { randomBytes } from 'node:crypto';
import type { SearchAnswer, SearchHit, SearchParams } from '@webdata/contract';
import type { Database } from 'better-sqlite3';
import {
  type Bm25Weights,
  type MatchQuery,
  migrateSearchIndex,
  SearchDocumentStore,
} from '../store/sqlite/search/index.js';
import {
  allOf,
  anyOf,
  nearOf,
  type ParsedQuery,
  parseSearchQuery,
  type QueryParseOptions,
} from './query-parser.js';
import { type CursorScope, decodeSearchCursor, encodeSearchCursor } from './search-cursor.js';
import { snippetToHtml, stripMarkerCharacters } from './snippet-html.js';
import type { IndexedDocument, SearchIndexLike } from './types.js';

/** Ranking and parsing knobs of {@link SqliteSearchIndex}; the defaults are the measured best. */
export interface SqliteSearchIndexOptions extends QueryParseOptions {
  /** Clock for `indexed_at` (tests pin it). */
  now?: () => Date;
  /** `bm25()` column weights. Default title 10, headings 4, body 1. */
  weights?: Bm25Weights;
  /**
   * In the OR fallback, each query clause a document holds multiplies its
   * score by `1 + coverageBoost / clauses`: documents with more of the words rank first.
   */
  coverageBoost?: number;
  /**
   * Score multiplier added when all clauses occur within `proximityWindow`
   * tokens. Default 0 (off): it did not improve the quality harness.
   */
  proximityBoost?: number;
  proximityWindow?: number;
}

export const DEFAULT_WEIGHTS: Bm25Weights = { title: 10, headings: 4, body: 1 };
// Measured with quality/search/handwritten/run.ts: coverage 2 lifts hit@3; a proximity boost did not help, so it is off.
const DEFAULT_COVERAGE_BOOST = 2;
const DEFAULT_PROXIMITY_BOOST = 0;
const DEFAULT_PROXIMITY_WINDOW = 10;

/**
 * The collection search index on SQLite FTS5: documents per (owner,
 * collection, url), ranked by weighted `bm25()`; when no document holds every
 * word, documents holding more of the words rank first. See README.md.
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
  private readonly coverageBoost: number;
  private readonly proximityBoost: number;
  private readonly proximityWindow: number;
  private readonly parseOptions: QueryParseOptions;

  /** Creates the index's tables in `db` if needed (see {@link migrateSearchIndex}). */
  constructor(db: Database, options: SqliteSearchIndexOptions = {}) {
    migrateSearchIndex(db);
    this.store = new SearchDocumentStore(db);
    this.now = options.now ?? (() => new Date());
    this.weights = options.weights ?? DEFAULT_WEIGHTS;
    this.coverageBoost = options.coverageBoost ?? DEFAULT_COVERAGE_BOOST;
    this.proximityBoost = options.proximityBoost ?? DEFAULT_PROXIMITY_BOOST;
    this.proximityWindow = options.proximityWindow ?? DEFAULT_PROXIMITY_WINDOW;
    this.parseOptions = { prefixLastWord: options.prefixLastWord, dropStopWords: options.dropStopWords };
  }

  /** Indexes the page, replacing the content of an earlier document with the same (owner, collection, url). */
  upsert(doc: IndexedDocument): void {
    this.store.upsert(
      {
        id: newDocumentId(),
        owner: doc.owner,
        collection: doc.collection,
        url: doc.url,
        site: siteOf(doc.url),
        title: doc.title === null ? null : stripMarkerCharacters(doc.title),
        headings: stripMarkerCharacters(doc.headings.join('\n')),
        body: stripMarkerCharacters(doc.body),
        indexedAt: this.now().toISOString(),
      },
      doc.runId,
    );
  }

  /** Forgets a run; its documents that no other run indexed are deleted. */
  removeRun(runId: string): void {
    this.store.removeRun(runId);
  }

  /**
   * Ranked hits for `params.query` in the owner's collection: all words first
   * (AND), every word (OR) when no document holds them all. Throws
   * `ServiceError('invalid_request')` for a cursor of another query.
   */
  search(owner: string, params: SearchParams): SearchAnswer {
    const scope: CursorScope = {
      owner,
      query: params.query,
      collection: params.collection,
      urlPrefix: params.filters?.url_prefix,
      site: params.filters?.site?.toLowerCase(),
    };
    const offset = params.cursor === undefined ? 0 : decodeSearchCursor(params.cursor, scope);
    const parsed = parseSearchQuery(params.query, this.parseOptions);
    if (parsed.clauses.length === 0) return { data: [], next_cursor: null };

    const base = {
      owner,
      collection: params.collection,
      urlPrefix: scope.urlPrefix,
      site: scope.site,
      weights: this.weights,
      limit: params.limit + 1,
      offset,
    };
    const allWords: MatchQuery = { ...base, match: allOf(parsed), boosts: this.proximityBoosts(parsed) };
    let rows = this.store.findMatches(allWords);
    const useFallback =
      rows.length === 0 && parsed.clauses.length > 1 && (offset === 0 || !this.store.hasMatch(allWords));
    if (useFallback) {
      rows = this.store.findMatches({ ...base, match: anyOf(parsed), boosts: this.anyWordBoosts(parsed) });
    }

    const data: SearchHit[] = rows.slice(0, params.limit).map((row) => ({
      document_id: row.id,
      url: row.url,
      title: row.title,
      snippet: snippetToHtml(row.snippet ?? ''),
      score: roundScore(row.score),
      collection: row.collection,
      indexed_at: row.indexed_at,
    }));
    const next_cursor = rows.length > params.limit ? encodeSearchCursor(scope, offset + params.limit) : null;
    return { data, next_cursor };
  }

  /** The owner's collections, by name, with document counts and the last indexing time. */
  collections(owner: string): { name: string; document_count: number; updated_at: string | null }[] {
    return this.store.collections(owner);
  }

  private proximityBoosts(parsed: ParsedQuery): MatchQuery['boosts'] {
    const near = this.proximityBoost > 0 ? nearOf(parsed, this.proximityWindow) : null;
    return near === null ? [] : [{ match: near, boost: this.proximityBoost }];
  }

  private anyWordBoosts(parsed: ParsedQuery): MatchQuery['boosts'] {
    const boosts: MatchQuery['boosts'] = [];
    if (this.coverageBoost > 0) {
      const each = this.coverageBoost / parsed.clauses.length;
      for (const clause of parsed.clauses) boosts.push({ match: clause.expression, boost: each });
    }
    return [...boosts, ...this.proximityBoosts(parsed)];
  }
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
