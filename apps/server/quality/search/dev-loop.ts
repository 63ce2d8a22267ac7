/**
 * The quick loop for ranking work: the dev questions only, asked in-process of
 * a copy of the search index a kept crawl left behind (run.ts with
 * SEARCH_QUALITY_DATA_DIR), so a ranking change is measured in a second with
 * no server and no crawl. Held questions are never asked here.
 *
 * `npx tsx quality/search/dev-loop.ts <SEARCH_QUALITY_DATA_DIR>` from apps/server.
 * It prints, for each dev set (Python+Git `dev`, Django `dev-django`, Octave
 * `dev-octave`) and for all of them together, dev hit@1, hit@3, MRR@10 with
 * plain FTS5's and MiniSearch's on the same pages beside them, and each
 * set's dev questions without a relevant page in our top three. A dev set the kept
 * crawl lacks is named, with how to crawl it into a copy. The figures to
 * report come from run.ts (over HTTP, baselines beside them).
 */
import { pathToFileURL } from 'node:url';
import { askDevBaselines, askDevSets } from './dev-questions.js';
import { missingSetLines, withKeptCrawlOf } from './kept-crawl.js';
import { figuresOf, type QualityFigures } from './metrics.js';
import { DEV_SETS, type QuestionSet } from './question-sets.js';

/** The lines dev-loop prints for a kept crawl: figures and misses per dev set, then all together. */
export function devLoopLines(dataDir: string, sets: readonly QuestionSet[] = DEV_SETS): string[] {
  return withKeptCrawlOf(dataDir, sets, ({ db, origins, sets: kept, missing }) => {
    const lines = missingSetLines(dataDir, missing);
    const figuresLine = (label: string, f: QualityFigures) =>
      `${label} (${f.questions}): hit@1 ${f.hitAt1.toFixed(2)}  hit@3 ${f.hitAt3.toFixed(2)}  MRR@10 ${f.mrrAt10.toFixed(3)}`;
    const asked = askDevSets(db, origins, kept);
    const baselines = askDevBaselines(dataDir, origins, kept);
    asked.forEach((set, s) => {
      lines.push(figuresLine(set.label, figuresOf(set.positions)));
      for (const baseline of baselines) {
        const positions = baseline.sets[s]?.positions ?? [];
        lines.push(figuresLine(`${set.label} ${baseline.name}`, figuresOf(positions)));
      }
      set.questions.forEach((q, i) => {
        const position = set.positions[i] ?? -1;
        if (position >= 0 && position < 3) return;
        const top = (set.ranked[i] ?? []).slice(0, 3).join(', ') || '(nothing)';
        lines.push(`  ${q.id} ${q.question} → ${top} [at ${position + 1}]`);
      });
    });
    if (asked.length > 1) {
      lines.push(figuresLine('all dev', figuresOf(asked.flatMap((set) => set.positions))));
      for (const baseline of baselines)
        lines.push(
          figuresLine(`all dev ${baseline.name}`, figuresOf(baseline.sets.flatMap((set) => set.positions))),
        );
    }
    return lines;
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dataDir = process.argv[2];
  if (dataDir === undefined) {
    console.error('usage: dev-loop.ts <SEARCH_QUALITY_DATA_DIR of a kept crawl>');
    process.exit(2);
  }
  console.log(devLoopLines(dataDir).join('\n'));
}
