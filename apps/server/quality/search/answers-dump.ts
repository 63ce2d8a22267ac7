/**
 * Compares two versions of the search's answers on real pages: `build` indexes the dev manuals'
 * pages as the latency bench does (real-page-latency.ts, 10,000 documents by default) and writes
 * the database to a file; `dump` asks every dev question (pages 1 and 2) of a copy of that file,
 * in memory, its first-stage copy built as the bench builds it, and writes every hit (document id,
 * URL, title, snippet, score, collection, indexing time) and each page's cursor as JSON. Dumps made
 * by two checkouts' code on the same file are byte-equal when their answers are (`cmp a.json b.json`).
 * Dev questions only: the held ones are never asked here.
 *
 * From apps/server (each checkout its own):
 * `npx tsx --conditions=source quality/search/answers-dump.ts build /tmp/real10k.db [documents]`, then
 * `npx tsx --conditions=source quality/search/answers-dump.ts dump /tmp/real10k.db /tmp/answers.json [warm]`
 * (`warm`: every question asked once before the dumped round, whose answers then come from what
 * the index kept of the first: compare it with a cold dump too).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { SqliteSearchIndex } from '../../src/search/sqlite-search-index.js';
import { missingManuals } from './manuals.js';
import { loadQuestions, REAL_PAGE_LATENCY_SETS } from './question-sets.js';
import { indexRealPages, realPages } from './real-page-latency.js';

function devQuestions(): string[] {
  return REAL_PAGE_LATENCY_SETS.flatMap((set) => loadQuestions(set))
    .filter((q) => q.split === 'dev')
    .map((q) => q.question);
}

function build(file: string, size: number): void {
  const manuals = [...new Set(REAL_PAGE_LATENCY_SETS.flatMap((set) => set.manuals))];
  const missing = missingManuals(manuals);
  if (missing !== null) throw new Error(missing);
  const pages = realPages(manuals);
  const db = new Database(':memory:');
  indexRealPages(db, pages, size).close();
  writeFileSync(file, db.serialize());
  db.close();
  console.log(`${size} documents (${Math.min(size, pages.length)} distinct pages) written to ${file}`);
}

async function dump(file: string, out: string, warm: boolean): Promise<void> {
  const db = new Database(readFileSync(file));
  const index = new SqliteSearchIndex(db);
  await index.mirrorReady();
  const questions = devQuestions();
  // `warm`: every question asked once before, so the answers dumped are those of the kept pages
  // and phrases (page-cache.ts, fts-mirror.ts), as a server asked again answers.
  if (warm)
    for (const query of questions) {
      const params = { query, collection: 'real', limit: 10 };
      const first = index.search('bench', params);
      if (first.next_cursor !== null) index.search('bench', { ...params, cursor: first.next_cursor });
    }
  let hits = 0;
  const answers = questions.map((query) => {
    const params = { query, collection: 'real', limit: 10 };
    const first = index.search('bench', params);
    const second =
      first.next_cursor === null ? null : index.search('bench', { ...params, cursor: first.next_cursor });
    hits += first.data.length + (second?.data.length ?? 0);
    return { query, pages: second === null ? [first] : [first, second] };
  });
  index.close();
  db.close();
  writeFileSync(out, `${JSON.stringify(answers, null, 1)}\n`);
  console.log(`${questions.length} dev questions, pages 1 and 2: ${hits} hits written to ${out}`);
}

const [mode, file, third, fourth] = process.argv.slice(2);
if (mode === 'build' && file !== undefined) build(file, Number(third ?? 10_000));
else if (mode === 'dump' && file !== undefined && third !== undefined)
  await dump(file, third, fourth === 'warm');
else {
  console.error('usage: answers-dump.ts build <db file> [documents] | dump <db file> <out.json> [warm]');
  process.exit(2);
}
