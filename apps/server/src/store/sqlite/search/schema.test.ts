import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { summaryOf } from '../../../search/rerank.js';
import { pageLackingAWord } from '../../../search/small-field-candidates.test-support.js';
import { SqliteSearchIndex } from '../../../search/sqlite-search-index.js';
import { migrateSearchIndex } from './schema.js';

/** The search tables as they were before the small fields: no `summary` column, no `search_fields_fts`. */
function databaseFromBeforeSmallFields(): Database.Database {
  const db = new Database(':memory:');
  migrateSearchIndex(db);
  db.exec(`
    DROP TRIGGER search_documents_fields_after_insert;
    DROP TRIGGER search_documents_fields_after_delete;
    DROP TRIGGER search_documents_fields_after_update;
    DROP TABLE search_fields_fts;
    ALTER TABLE search_documents DROP COLUMN summary;
  `);
  return db;
}

describe('migrateSearchIndex', () => {
  it('gives a database from before the small fields their column, every summary and their index', () => {
    const db = databaseFromBeforeSmallFields();
    const c = pageLackingAWord('owner_a', 'docs');
    const insert = db.prepare(`
      INSERT INTO search_documents (id, owner, collection, url, site, title, headings, body, indexed_at)
      VALUES (?, ?, ?, ?, 'd.example', ?, '', ?, '2026-11-01T00:00:00.000Z')`);
    c.documents.forEach((d, i) => {
      insert.run(`doc_${i}`, d.owner, d.collection, d.url, d.title, d.body);
    });

    migrateSearchIndex(db);
    migrateSearchIndex(db);

    const summary = db.prepare('SELECT summary FROM search_documents WHERE url = ?').pluck();
    const wanted = c.documents.find((d) => d.url === c.wanted)!;
    expect(summary.get(c.wanted)).toBe(summaryOf(wanted.body));
    expect(summary.get(c.wanted)).toMatch(/^Tallies the cargo/);
    const index = new SqliteSearchIndex(db);
    const hits = index.search(c.owner, { query: c.query, collection: 'docs', limit: 10 }).data;
    expect(hits.slice(0, 3).map((hit) => hit.url)).toContain(c.wanted);
    // Documents indexed after the migration keep the small-field index in step (insert, update, delete).
    index.upsert({
      ...wanted,
      url: 'https://d.example/count',
      body: 'Counts the cargo of each harbour quickly.',
    });
    const inFields = () =>
      db
        .prepare(
          "SELECT count(*) FROM search_fields_fts WHERE search_fields_fts MATCH 'counts' AND rowid IN (SELECT seq FROM search_documents WHERE url = ?)",
        )
        .pluck()
        .get('https://d.example/count');
    expect(inFields()).toBe(1);
    index.upsert({
      ...wanted,
      url: 'https://d.example/count',
      body: 'Weighs the cargo of each harbour quickly.',
    });
    expect(inFields()).toBe(0);
  });
});
