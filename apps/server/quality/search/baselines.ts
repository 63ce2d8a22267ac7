import Database from 'better-sqlite3';
import MiniSearch from 'minisearch';
import type { CrawledDocument } from './crawled-manuals.js';

/** A ranker under test: the URLs of its top hits for a question, best first. */
export type Ranker = (question: string) => string[] | Promise<string[]>;

/** A ranker that answers at once (the in-process baselines, which the dev tools ask synchronously). */
export type SyncRanker = (question: string) => string[];

const TOP = 10;

/**
 * Plain SQLite FTS5 as a developer would set it up in a few lines: one table
 * of (title, body) with the Porter stemmer, every word of the question OR-ed
 * (each quoted, so no word is read as syntax), ranked by plain `bm25()`.
 */
export function plainFts5(documents: readonly CrawledDocument[]): SyncRanker {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE pages USING fts5(url UNINDEXED, title, body, tokenize = 'porter unicode61')`);
  const insert = db.prepare('INSERT INTO pages (url, title, body) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const doc of documents) insert.run(doc.url, doc.title, doc.text);
  })();
  const select = db
    .prepare(`SELECT url FROM pages WHERE pages MATCH ? ORDER BY bm25(pages) LIMIT ${TOP}`)
    .pluck();
  return (question) => {
    const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    if (words.length === 0) return [];
    return select.all(words.map((w) => `"${w}"`).join(' OR ')) as string[];
  };
}

/** MiniSearch with its default settings (OR of the terms, BM25+, no stemming) over title and text. */
export function miniSearchDefaults(documents: readonly CrawledDocument[]): SyncRanker {
  const index = new MiniSearch<CrawledDocument & { id: number }>({ fields: ['title', 'text'] });
  index.addAll(documents.map((doc, id) => ({ ...doc, id })));
  return (question) =>
    index
      .search(question)
      .slice(0, TOP)
      .map((hit) => documents[hit.id as number]?.url ?? '');
}

/** The plain baselines every figure of ours is printed beside, by name, built from a set's pages. */
export const BASELINES: readonly {
  name: string;
  build: (documents: readonly CrawledDocument[]) => SyncRanker;
}[] = [
  { name: 'plain FTS5 (porter, OR, bm25)', build: plainFts5 },
  { name: 'MiniSearch defaults', build: miniSearchDefaults },
];
