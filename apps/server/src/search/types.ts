import type { SearchAnswer, SearchParams } from '@webdata/contract';
import type { EmbeddedChunk } from './embeddings.js';
import type { WordBackfillStore } from './word-backfill.js';

/** One page to index into a collection. */
export interface IndexedDocument {
  /** The API key owner the collection belongs to: collections are per owner. */
  owner: string;
  collection: string;
  url: string;
  title: string | null;
  headings: string[];
  /** Main text (markdown or plain text). */
  body: string;
  /** Embedded chunks of the page (when an embeddings endpoint is configured), stored with it. */
  chunks?: EmbeddedChunk[] | undefined;
  /**
   * The body's word index (`documentWordIndex(body)`: null when the body cannot have one), built
   * where the body was made (a converter thread) so that the main thread does not; absent, the
   * store builds it. It must be of this very body: the store keeps it as the body's.
   */
  words?: Uint8Array | null | undefined;
  /** The run that indexed it; a URL indexed by several runs is kept until the last one is deleted. */
  runId: string;
}

/**
 * The collection's full-text index (synchronous on SQLite, asynchronous on PostgreSQL), and the
 * reads and writes of its word-index backfill ({@link WordBackfillStore}).
 */
export interface SearchIndexLike extends WordBackfillStore {
  /** Index or replace the document of (collection, url). */
  upsert(doc: IndexedDocument): void | Promise<void>;
  /** Forget a run: remove the documents no other run indexed. */
  removeRun(runId: string): void | Promise<void>;
  /**
   * Ranked hits; with `queryVector` (the query's embedding), the lexical
   * ranking fused with the documents' nearest chunks (reciprocal rank fusion).
   */
  search(
    owner: string,
    params: SearchParams,
    queryVector?: Float32Array | null,
  ): SearchAnswer | Promise<SearchAnswer>;
  collections(
    owner: string,
  ):
    | { name: string; document_count: number; updated_at: string | null }[]
    | Promise<{ name: string; document_count: number; updated_at: string | null }[]>;
}
