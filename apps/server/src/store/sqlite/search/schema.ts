import type { Database } from 'better-sqlite3';
import { LEAD_CHARACTERS, OPENING_CHARACTERS, summaryOf } from '../../../search/rerank.js';

/**
 * Creates the search index's tables, FTS5 index and triggers if they are
 * missing (idempotent: safe to call on every start).
 *
 * - `search_documents`: one row per (owner, collection, url); `seq` is the
 *   integer rowid the FTS index points at, `id` the public `doc_…` id. The
 *   columns a candidate is re-ranked by (`lead`: the body's opening) come
 *   before the body, so reading them never walks the body's overflow pages.
 * - `search_document_runs`: which runs indexed a document, so deleting one run
 *   keeps a document another run also indexed.
 * - `search_chunks`: a document's embedded chunks (semantic search), deleted with it.
 * - `search_words`: a document's body's words and their offsets (`buildWordIndex`), so a search
 *   neither reads nor lower-cases the body to find the query's words in it; deleted with the
 *   document and when its body changes (the indexer writes it again). A database from before it
 *   has none for its rows, which are read and scanned as before until they are indexed again.
 * - `search_fts`: external-content FTS5 over (title, headings, body) with the
 *   Porter stemmer, kept in sync by triggers inside the writer's transaction.
 * - `search_fields_fts`: the same over the small fields (title, headings,
 *   summary): what a page says it is about, searched on its own so a page
 *   whose body lacks the question's words can still be a candidate. The
 *   `summary` column (see `summaryOf`) is written by the indexer; a database
 *   from before it gets the column, every row's summary and this index here.
 *
 * @example
 * ```ts
 * const db = new Database(':memory:');
 * migrateSearchIndex(db);
 * ```
 */
export function migrateSearchIndex(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS search_documents (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      owner TEXT NOT NULL,
      collection TEXT NOT NULL,
      url TEXT NOT NULL,
      site TEXT NOT NULL,
      title TEXT,
      headings TEXT NOT NULL,
      -- Read with every candidate: before the body, whose overflow pages are then never walked.
      indexed_at TEXT NOT NULL,
      summary TEXT NOT NULL DEFAULT '',
      lead TEXT,
      body TEXT NOT NULL,
      UNIQUE (owner, collection, url)
    );
    CREATE TABLE IF NOT EXISTS search_document_runs (
      document_id TEXT NOT NULL REFERENCES search_documents(id) ON DELETE CASCADE,
      run_id TEXT NOT NULL,
      PRIMARY KEY (document_id, run_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS search_document_runs_by_run ON search_document_runs(run_id, document_id);
    CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(
      title, headings, body,
      content = 'search_documents',
      content_rowid = 'seq',
      tokenize = 'porter unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER IF NOT EXISTS search_documents_after_insert AFTER INSERT ON search_documents BEGIN
      INSERT INTO search_fts(rowid, title, headings, body) VALUES (new.seq, new.title, new.headings, new.body);
    END;
    -- Embedded chunks of a document (semantic search), little-endian float32 vectors; written in the
    -- document's transaction and removed with it.
    CREATE TABLE IF NOT EXISTS search_chunks (
      seq INTEGER NOT NULL,
      n INTEGER NOT NULL,
      text TEXT NOT NULL,
      vector BLOB NOT NULL,
      PRIMARY KEY (seq, n)
    ) WITHOUT ROWID;
    CREATE TRIGGER IF NOT EXISTS search_documents_delete_chunks AFTER DELETE ON search_documents BEGIN
      DELETE FROM search_chunks WHERE seq = old.seq;
    END;
    -- Each body's words and where they start (search/word-index.ts), written with the document; a
    -- body changed by any writer loses its row (the indexer writes the new one after), and a body
    -- without one is read and scanned instead.
    CREATE TABLE IF NOT EXISTS search_words (
      seq INTEGER PRIMARY KEY,
      words BLOB NOT NULL
    );
    CREATE TRIGGER IF NOT EXISTS search_documents_delete_words AFTER DELETE ON search_documents BEGIN
      DELETE FROM search_words WHERE seq = old.seq;
    END;
    CREATE TRIGGER IF NOT EXISTS search_documents_body_words AFTER UPDATE OF body ON search_documents BEGIN
      DELETE FROM search_words WHERE seq = old.seq;
    END;
    CREATE TRIGGER IF NOT EXISTS search_documents_after_delete AFTER DELETE ON search_documents BEGIN
      INSERT INTO search_fts(search_fts, rowid, title, headings, body)
        VALUES ('delete', old.seq, old.title, old.headings, old.body);
    END;
    CREATE TRIGGER IF NOT EXISTS search_documents_after_update
      AFTER UPDATE OF title, headings, body ON search_documents BEGIN
      INSERT INTO search_fts(search_fts, rowid, title, headings, body)
        VALUES ('delete', old.seq, old.title, old.headings, old.body);
      INSERT INTO search_fts(rowid, title, headings, body) VALUES (new.seq, new.title, new.headings, new.body);
    END;
  `);
  migrateSummaryFields(db);
  migrateLead(db);
}

/**
 * Adds the `lead` column (the body's first {@link LEAD_CHARACTERS} characters, written by the
 * indexer so that a candidate's lead is read without its body) to a database of any earlier
 * version. The rows indexed before it keep NULL there, and their lead is cut from the body as
 * before (`coalesce`). Idempotent; adding a column rewrites no row.
 */
function migrateLead(db: Database): void {
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('search_documents');
  if (!columns.includes('lead')) db.exec('ALTER TABLE search_documents ADD COLUMN lead TEXT');
}

/**
 * Adds the `summary` column and `search_fields_fts` to a database of any
 * earlier version: the column is filled from each row's body (in one
 * transaction), then the index is built from the rows. Idempotent.
 */
function migrateSummaryFields(db: Database): void {
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('search_documents');
  const hasFieldsIndex =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_fields_fts'").get() !==
    undefined;
  if (columns.includes('summary') && hasFieldsIndex) return;
  db.transaction(() => {
    if (!columns.includes('summary')) {
      db.exec("ALTER TABLE search_documents ADD COLUMN summary TEXT NOT NULL DEFAULT ''");
      const openings = db
        .prepare(`SELECT seq, substr(body, 1, ${OPENING_CHARACTERS}) AS opening FROM search_documents`)
        .all() as { seq: number; opening: string }[];
      const setSummary = db.prepare('UPDATE search_documents SET summary = ? WHERE seq = ?');
      for (const row of openings) setSummary.run(summaryOf(row.opening), row.seq);
    }
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS search_fields_fts USING fts5(
        title, headings, summary,
        content = 'search_documents',
        content_rowid = 'seq',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      INSERT INTO search_fields_fts(search_fields_fts) VALUES ('rebuild');
      CREATE TRIGGER IF NOT EXISTS search_documents_fields_after_insert AFTER INSERT ON search_documents BEGIN
        INSERT INTO search_fields_fts(rowid, title, headings, summary) VALUES (new.seq, new.title, new.headings, new.summary);
      END;
      CREATE TRIGGER IF NOT EXISTS search_documents_fields_after_delete AFTER DELETE ON search_documents BEGIN
        INSERT INTO search_fields_fts(search_fields_fts, rowid, title, headings, summary)
          VALUES ('delete', old.seq, old.title, old.headings, old.summary);
      END;
      CREATE TRIGGER IF NOT EXISTS search_documents_fields_after_update
        AFTER UPDATE OF title, headings, summary ON search_documents BEGIN
        INSERT INTO search_fields_fts(search_fields_fts, rowid, title, headings, summary)
          VALUES ('delete', old.seq, old.title, old.headings, old.summary);
        INSERT INTO search_fields_fts(rowid, title, headings, summary)
          VALUES (new.seq, new.title, new.headings, new.summary);
      END;
    `);
  })();
}
