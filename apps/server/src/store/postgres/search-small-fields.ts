/** Text search configuration of the search index: Snowball English stemming, as SQLite's Porter stemmer. */
export const SEARCH_CONFIG = 'english';

/**
 * The SQL of a document's small-fields tsvector from three SQL expressions: title (weight A),
 * headings (B) and summary (C). The indexer and the migration that added the column write it alike.
 */
export function smallFieldsTsvectorSql(title: string, headings: string, summary: string): string {
  return `setweight(to_tsvector('${SEARCH_CONFIG}', coalesce(${title}, '')), 'A')
    || setweight(to_tsvector('${SEARCH_CONFIG}', ${headings}), 'B')
    || setweight(to_tsvector('${SEARCH_CONFIG}', ${summary}), 'C')`;
}
