import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** The search index a kept crawl (run.ts with SEARCH_QUALITY_DATA_DIR) left behind, opened for in-process queries. */
export interface KeptCrawl {
  db: Database.Database;
  /** The owner and collection holding the crawled manuals (the largest one in the index). */
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
    const { owner, collection } = db
      .prepare(
        'SELECT owner, collection FROM search_documents GROUP BY owner, collection ORDER BY count(*) DESC',
      )
      .get() as { owner: string; collection: string };
    return use({ db, owner, collection, origins });
  } finally {
    db.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
