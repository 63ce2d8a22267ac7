export { migrateSearchIndex } from '../store/sqlite/search/index.js';
export { type ParsedQuery, parseSearchQuery, type QueryClause } from './query-parser.js';
export { SqliteSearchIndex, type SqliteSearchIndexOptions } from './sqlite-search-index.js';
export type { IndexedDocument, SearchIndexLike } from './types.js';
