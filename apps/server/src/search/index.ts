export {
  type QualityFigures,
  runSearchQuality,
  type SearchQualityReport,
} from '../../search-quality/run.js';
export { migrateSearchIndex } from '../store/sqlite/search/index.js';
export { benchSearch, type SearchBenchFigures } from './bench.js';
export { type ParsedQuery, parseSearchQuery, type QueryClause } from './query-parser.js';
export { SqliteSearchIndex, type SqliteSearchIndexOptions } from './sqlite-search-index.js';
export type { IndexedDocument, SearchIndexLike } from './types.js';
