/**
 * Checks the word-index backfill on real pages (`npx tsx quality/search/word-backfill-check.ts [documents]`
 * from apps/server): the dev manuals' pages indexed as the latency bench indexes them (10,000
 * documents by default), the 203 dev questions' pages 1 and 2 asked three times: with the word
 * indexes the indexer wrote, with none (a database from before them: every body read and scanned),
 * and after `backfillWordIndexes` gave them back (built on its thread). Prints whether the three
 * answers are byte-equal (URL, title, snippet, score of every hit), whether every backfilled index
 * is byte-equal to the one the indexer wrote, the backfill's counts, its time and the main
 * thread's CPU during it. Dev questions only: the held ones are never asked here.
 */
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { backfillWordIndexes } from '../../src/search/word-backfill.js';
import { WordIndexThreads } from '../../src/search/word-index-threads.js';
import { missingManuals } from './manuals.js';
import { DEV_SETS, loadQuestions } from './question-sets.js';
import { indexRealPages, realPages } from './real-page-latency.js';

/** CPU ms of this process's main thread so far (utime + stime of its task, in clock ticks of 10 ms). */
function mainThreadCpuMs(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? 10_000);
  const manuals = [...new Set(DEV_SETS.flatMap((set) => set.manuals))];
  const missing = missingManuals(manuals);
  if (missing !== null) throw new Error(missing);
  const pages = realPages(manuals);
  const questions = DEV_SETS.flatMap((set) => loadQuestions(set))
    .filter((q) => q.split === 'dev')
    .map((q) => q.question);
  const db = new Database(':memory:');
  const index = indexRealPages(db, pages, size);
  const answers = () =>
    JSON.stringify(
      questions.map((query) => {
        const params = { query, collection: 'real', limit: 10 };
        const first = index.search('bench', params);
        const second =
          first.next_cursor === null
            ? []
            : index.search('bench', { ...params, cursor: first.next_cursor }).data;
        return [...first.data, ...second].map(({ url, title, snippet, score }) => ({
          url,
          title,
          snippet,
          score,
        }));
      }),
    );
  const words = () =>
    db.prepare('SELECT seq, words FROM search_words ORDER BY seq').all() as { seq: number; words: Buffer }[];
  const indexed = answers();
  const written = words();
  db.exec('DELETE FROM search_words');
  const scanned = answers();
  const threads = new WordIndexThreads(1);
  const cpuBefore = mainThreadCpuMs();
  const started = performance.now();
  const counts = await backfillWordIndexes(index, { build: (text) => threads.build(text) });
  const ms = performance.now() - started;
  const mainCpuMs = mainThreadCpuMs() - cpuBefore;
  await threads.close();
  const backfilled = words();
  const sameIndexes =
    backfilled.length === written.length &&
    backfilled.every((row, i) => row.seq === written[i]!.seq && row.words.equals(written[i]!.words));
  const backfilledAnswers = answers();
  const hits = (JSON.parse(indexed) as unknown[][]).reduce((n, hitsOf) => n + hitsOf.length, 0);
  console.log(
    `${size} documents (${Math.min(size, pages.length)} distinct pages), ${questions.length} dev questions, pages 1 and 2: ${hits} hits`,
  );
  console.log(`answers without word indexes byte-equal to those with the indexer's: ${scanned === indexed}`);
  console.log(
    `answers after the backfill byte-equal to those with the indexer's: ${backfilledAnswers === indexed}`,
  );
  console.log(
    `backfilled indexes byte-equal to the indexer's (${written.length} of ${size} documents have one): ${sameIndexes}`,
  );
  console.log(
    `backfill: ${JSON.stringify(counts)} in ${ms.toFixed(0)} ms; main thread CPU ${mainCpuMs} ms (${((mainCpuMs / Math.max(1, counts.checked)) * 1000).toFixed(0)} µs a document)`,
  );
}

await main();
