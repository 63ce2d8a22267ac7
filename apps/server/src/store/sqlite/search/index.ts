export { migrateSearchIndex } from './schema.js';
export {
  type Bm25Weights,
  type MatchedDocument,
  type MatchQuery,
  type MatchRow,
  type SearchDocumentRow,
  SearchDocumentStore,
  SNIPPET_CLOSE,
  SNIPPET_ELLIPSIS,
  SNIPPET_OPEN,
  type StoredChunk,
} from './search-document-store.js';
