import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PYTHON_GIT_QUESTIONS, type QuestionSet } from './question-sets.js';

/** The search index a kept crawl (run.ts with SEARCH_QUALITY_DATA_DIR) left behind, opened for in-process queries. */
export interface KeptCrawl {
  db: Database.Database;
  /** The owner and collection holding the Python and Git manuals (the dev questions' pages). */
  owner: string;
  collection: string;
  /** Each manual's origin in that crawl, to turn hit URLs into judged page ids. */
  origins: Record<string, string>;
}

/** A question set's collection in a kept crawl, with the owner that crawled it. */
export interface KeptSet {
  set: QuestionSet;
  owner: string;
  collection: string;
}

/** A kept crawl's index opened for several question sets at once. */
export interface KeptCrawlOfSets {
  db: Database.Database;
  /** Each manual's origin in that crawl, to turn hit URLs into judged page ids. */
  origins: Record<string, string>;
  /** The asked sets whose collection the crawl holds, in the order asked. */
  sets: KeptSet[];
  /** The asked sets it does not hold (a kept crawl made before the set existed). */
  missing: QuestionSet[];
}

/**
 * Runs `use` on a copy of a kept crawl's database, with each asked set's
 * collection looked up by name: the kept one may be open by a server, and
 * ranking experiments must not change it. The copy is removed afterwards. A
 * set the kept crawl does not hold is listed in `missing`, not an error: an
 * older kept crawl still answers for the sets it has.
 */
export function withKeptCrawlOf<T>(
  dataDir: string,
  sets: readonly QuestionSet[],
  use: (crawl: KeptCrawlOfSets) => T,
): T {
  const { origins } = JSON.parse(readFileSync(join(dataDir, 'harness-state.json'), 'utf8')) as {
    origins: Record<string, string>;
  };
  const scratch = mkdtempSync(join(tmpdir(), 'search-kept-crawl-'));
  const file = join(scratch, 'webdata.sqlite');
  copyFileSync(join(dataDir, 'server', 'webdata.sqlite'), file);
  const db = new Database(file);
  try {
    // By name: a kept crawl holds one collection per set, and the largest is not the one asked.
    const ownerOf = db.prepare(
      'SELECT owner FROM search_documents WHERE collection = ? GROUP BY owner ORDER BY count(*) DESC',
    );
    const kept: KeptSet[] = [];
    const missing: QuestionSet[] = [];
    for (const set of sets) {
      const found = ownerOf.get(set.collection) as { owner: string } | undefined;
      if (found === undefined) missing.push(set);
      else kept.push({ set, owner: found.owner, collection: set.collection });
    }
    return use({ db, origins, sets: kept, missing });
  } finally {
    db.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Runs `use` on a copy of a kept crawl's database, opened for the Python and
 * Git manuals' collection (throws when the crawl has none).
 */
export function withKeptCrawl<T>(dataDir: string, use: (crawl: KeptCrawl) => T): T {
  return withKeptCrawlOf(dataDir, [PYTHON_GIT_QUESTIONS], ({ db, origins, sets }) => {
    const kept = sets[0];
    if (kept === undefined)
      throw new Error(`the kept crawl in ${dataDir} has no collection ${PYTHON_GIT_QUESTIONS.collection}`);
    return use({ db, owner: kept.owner, collection: kept.collection, origins });
  });
}

/** What to do about dev sets a kept crawl lacks, one line each (printed by the dev tools). */
export function missingSetLines(dataDir: string, missing: readonly QuestionSet[]): string[] {
  return missing.map(
    (set) =>
      `${set.title}: the kept crawl in ${dataDir} has no collection ${set.collection}; crawl it into a copy ` +
      `(cp -r ${dataDir} <copy> && npx tsx quality/search/keep-crawl.ts <copy>) and run on the copy`,
  );
}
