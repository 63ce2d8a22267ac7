import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PYTHON_GIT_QUESTIONS } from './question-sets.js';

/** The search index a kept crawl (run.ts with SEARCH_QUALITY_DATA_DIR) left behind, opened for in-process queries. */
export interface KeptCrawl {
  db: Database.Database;
  /** The owner and collection holding the Python and Git manuals (the dev questions' pages). */
  owner: string;
  collection: string;
  /** Each manual's origin in that crawl, to turn hit URLs into judged page ids. */
  origins: Record<string, string>;
}

/**
 * Runs `use` on a copy of a kept crawl's database: the kept one may be open
 * by a server, and ranking experiments must not change it. The copy is
 * removed afterwards.
 */
export function withKeptCrawl<T>(dataDir: string, use: (crawl: KeptCrawl) => T): T {
  const { origins } = JSON.parse(readFileSync(join(dataDir, 'harness-state.json'), 'utf8')) as {
    origins: Record<string, string>;
  };
  const scratch = mkdtempSync(join(tmpdir(), 'search-kept-crawl-'));
  const file = join(scratch, 'webdata.sqlite');
  copyFileSync(join(dataDir, 'server', 'webdata.sqlite'), file);
  const db = new Database(file);
  try {
    // By name: a kept crawl may also hold other sets' collections (the SQLite manual's, of held
    // questions only), and one of those may be the larger.
    const { collection } = PYTHON_GIT_QUESTIONS;
    const found = db
      .prepare(
        'SELECT owner FROM search_documents WHERE collection = ? GROUP BY owner ORDER BY count(*) DESC',
      )
      .get(collection) as { owner: string } | undefined;
    if (found === undefined) throw new Error(`the kept crawl in ${dataDir} has no collection ${collection}`);
    return use({ db, owner: found.owner, collection, origins });
  } finally {
    db.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
