/**
 * The quick loop for ranking work: the dev questions only, asked in-process of
 * a copy of the search index a kept crawl left behind (run.ts with
 * SEARCH_QUALITY_DATA_DIR), so a ranking change is measured in a second with
 * no server and no crawl. Held questions are never asked here.
 *
 * `npx tsx quality/search/dev-loop.ts <SEARCH_QUALITY_DATA_DIR>` from apps/server.
 * It prints dev hit@1, hit@3, MRR@10 and the dev questions without a relevant
 * page in the top three. The figures to report come from run.ts (over HTTP,
 * baselines beside them).
 */
import { SqliteSearchIndex } from '../../src/search/sqlite-search-index.js';
import { withKeptCrawl } from './kept-crawl.js';
import { judgedIdOf } from './manuals.js';
import { figuresOf, firstRelevant } from './metrics.js';
import { loadQuestions } from './question-sets.js';

const dataDir = process.argv[2];
if (dataDir === undefined) {
  console.error('usage: dev-loop.ts <SEARCH_QUALITY_DATA_DIR of a kept crawl>');
  process.exit(2);
}
withKeptCrawl(dataDir, ({ db, owner, collection, origins }) => {
  const index = new SqliteSearchIndex(db);
  const positions: number[] = [];
  const misses: string[] = [];
  for (const q of loadQuestions().filter((question) => question.split === 'dev')) {
    const answer = index.search(owner, { query: q.question, collection, limit: 10 });
    const ids = answer.data.map((hit) => judgedIdOf(hit.url, origins));
    const position = firstRelevant(ids, q.relevant);
    positions.push(position);
    if (position < 0 || position >= 3)
      misses.push(
        `  ${q.id} ${q.question} → ${ids.slice(0, 3).join(', ') || '(nothing)'} [at ${position + 1}]`,
      );
  }
  const f = figuresOf(positions);
  console.log(
    `dev (${f.questions}): hit@1 ${f.hitAt1.toFixed(2)}  hit@3 ${f.hitAt3.toFixed(2)}  MRR@10 ${f.mrrAt10.toFixed(3)}`,
  );
  console.log(misses.join('\n'));
});
