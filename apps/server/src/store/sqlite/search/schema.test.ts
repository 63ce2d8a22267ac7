import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LEAD_CHARACTERS, summaryOf } from '../../../search/rerank.js';
import { pageLackingAWord } from '../../../search/small-field-candidates.test-support.js';
import { SqliteSearchIndex } from '../../../search/sqlite-search-index.js';
import { migrateSearchIndex } from './schema.js';
import { SearchDocumentStore } from './search-document-store.js';

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

  it("stores each page's lead before its body, and cuts it from the body for the rows from before the column", () => {
    const db = new Database(':memory:');
    migrateSearchIndex(db);
    // A database from before the column: the rows it indexed have no lead of their own.
    db.exec('ALTER TABLE search_documents DROP COLUMN lead');
    // Astral characters count as one, as SQLite's substr() counts them.
    const body = `${'🙂 lead words '.repeat(30)}and the rest of the page.`;
    db.prepare(`
      INSERT INTO search_documents (id, owner, collection, url, site, title, headings, body, summary, indexed_at)
      VALUES ('doc_old', 'o', 'docs', 'https://d.example/old', 'd.example', 'Old', '', ?, '', '2026-11-01T00:00:00.000Z')`).run(
      body,
    );
    migrateSearchIndex(db);
    migrateSearchIndex(db);
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('search_documents');
    expect(columns).toContain('lead');
    const store = new SearchDocumentStore(db);
    store.upsert(
      {
        id: 'doc_new',
        owner: 'o',
        collection: 'docs',
        url: 'https://d.example/new',
        site: 'd.example',
        title: 'New',
        headings: '',
        body,
        summary: '',
        indexedAt: '2026-11-02T00:00:00.000Z',
      },
      'run_1',
    );
    const lead = Array.from(body).slice(0, LEAD_CHARACTERS).join('');
    const stored = db.prepare('SELECT url, lead FROM search_documents ORDER BY seq').all();
    expect(stored).toEqual([
      { url: 'https://d.example/old', lead: null },
      { url: 'https://d.example/new', lead },
    ]);
    const documents = store.documents([1, 2]);
    expect([...documents.values()].map((doc) => doc?.lead)).toEqual([lead, lead]);
    // A fresh database holds it before the body (read without the body's overflow pages).
    const fresh = new Database(':memory:');
    migrateSearchIndex(fresh);
    const order = fresh.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('search_documents');
    expect(order.indexOf('lead')).toBeLessThan(order.indexOf('body'));
    expect(order.at(-1)).toBe('body');
  });
});
