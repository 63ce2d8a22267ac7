import type { Database } from 'better-sqlite3';

/**
 * Creates the search index's tables, FTS5 index and triggers if they are
 * missing (idempotent: safe to call on every start).
 *
 * - `search_documents`: one row per (owner, collection, url); `seq` is the
 *   integer rowid the FTS index points at, `id` the public `doc_…` id.
 * - `search_document_runs`: which runs indexed a document, so deleting one run
 *   keeps a document another run also indexed.
 * - `search_chunks`: a document's embedded chunks (semantic search), deleted with it.
 * - `search_fts`: external-content FTS5 over (title, headings, body) with the
 *   Porter stemmer, kept in sync by triggers inside the writer's transaction.
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
      body TEXT NOT NULL,
      indexed_at TEXT NOT NULL,
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
}
