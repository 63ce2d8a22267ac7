/**
 * Ranking variants compared on the dev questions only, with a 2-fold check
 * inside dev: each dev set's questions alternate into halves A and B, and
 * each variant's MRR@10 is printed on all of dev and on each half, for each
 * dev set (Python+Git, Django, Octave) apart and for all of them together (A: every
 * set's A half), with plain FTS5 and MiniSearch defaults on the same pages
 * below the variants. A variant worth keeping wins on both halves (tuned on A, it
 * must also win on B, and the other way round), and on each kind of
 * documentation (chosen on two manuals, it must win on the third), not only
 * on the whole. Held questions are never asked.
 *
 * `npx tsx --conditions=source quality/search/dev-cv.ts <SEARCH_QUALITY_DATA_DIR>` from apps/server.
 * A kept crawl without a dev set's collection (made before the set existed)
 * is measured on the sets it holds; the missing ones are named, with how to
 * crawl them into a copy.
 */
import { pathToFileURL } from 'node:url';
import { DEFAULT_PASSAGE_WEIGHTS } from '../../src/search/passage.js';
import { DEFAULT_RERANK_WEIGHTS } from '../../src/search/rerank.js';
import {
  DEFAULT_FIELD_CANDIDATES,
  type SqliteSearchIndexOptions,
} from '../../src/search/sqlite-search-index.js';
import { type AskedDevSet, askDevBaselines, askDevSets } from './dev-questions.js';
import { missingSetLines, withKeptCrawlOf } from './kept-crawl.js';
import { figuresOf } from './metrics.js';
import { DEV_SETS, type QuestionSet } from './question-sets.js';

/** A named set of ranking options. */
export interface RankingVariant {
  name: string;
  options: SqliteSearchIndexOptions;
}

/** MRR@10 of one variant on all of dev and on its two alternating halves. */
export interface FoldFigures {
  name: string;
  dev: number;
  a: number;
  b: number;
  hitAt3: number;
}

/** The variants' figures on one scope: one dev set, or all of them together. */
export interface ScopeFigures {
  /** `dev`, `dev-django`, or `all dev` for every set together. */
  scope: string;
  questions: number;
  figures: FoldFigures[];
}

/** What {@link compareOnDev} measured, and the dev sets the kept crawl lacks. */
export interface DevComparison {
  scopes: ScopeFigures[];
  missing: QuestionSet[];
}

/** The scope name of every dev set together. */
export const ALL_DEV = 'all dev';

function foldFigures(name: string, positions: readonly number[], inA: readonly boolean[]): FoldFigures {
  const mrr = (keep: (i: number) => boolean) => figuresOf(positions.filter((_, i) => keep(i))).mrrAt10;
  return {
    name,
    dev: mrr(() => true),
    a: mrr((i) => inA[i] === true),
    b: mrr((i) => inA[i] === false),
    hitAt3: figuresOf(positions).hitAt3,
  };
}

/**
 * Asks the dev questions of each dev set the kept crawl holds under each
 * variant, then of the plain baselines (their rows come after the
 * variants'): figures per set, and (with more than one set) for all together.
 */
export function compareOnDev(
  dataDir: string,
  variants: readonly RankingVariant[],
  sets: readonly QuestionSet[] = DEV_SETS,
): DevComparison {
  return withKeptCrawlOf(dataDir, sets, ({ db, origins, sets: kept, missing }) => {
    const scopes: ScopeFigures[] = [];
    const rows: { name: string; asked: AskedDevSet[] }[] = [
      ...variants.map((variant) => ({
        name: variant.name,
        asked: askDevSets(db, origins, kept, variant.options),
      })),
      ...askDevBaselines(dataDir, origins, kept).map(({ name, sets }) => ({ name, asked: sets })),
    ];
    for (const { name, asked } of rows) {
      const perSet = asked.map((set) => ({
        scope: set.label,
        positions: set.positions,
        inA: set.positions.map((_, i) => i % 2 === 0),
      }));
      if (perSet.length > 1)
        perSet.push({
          scope: ALL_DEV,
          positions: perSet.flatMap((s) => s.positions),
          inA: perSet.flatMap((s) => s.inA),
        });
      for (const { scope, positions, inA } of perSet) {
        let figures = scopes.find((s) => s.scope === scope);
        if (figures === undefined) {
          figures = { scope, questions: positions.length, figures: [] };
          scopes.push(figures);
        }
        figures.figures.push(foldFigures(name, positions, inA));
      }
    }
    return { scopes, missing };
  });
}

/** Prints the figures, one table per scope, one variant a line. */
export function printFoldFigures(comparison: DevComparison, dataDir = '<kept crawl>'): void {
  for (const line of missingSetLines(dataDir, comparison.missing)) console.log(line);
  for (const { scope, questions, figures } of comparison.scopes) {
    console.log(`\n${`${scope} (${questions} questions)`.padEnd(48)}    dev      A      B  hit@3`);
    for (const f of figures) {
      console.log(
        `${f.name.padEnd(48)} ${f.dev.toFixed(3)} ${f.a.toFixed(3)} ${f.b.toFixed(3)}   ${f.hitAt3.toFixed(2)}`,
      );
    }
  }
}

/** The default ranking beside each of its signals taken away (or set back to its earlier value). */
export const ABLATIONS: readonly RankingVariant[] = [
  { name: 'default', options: {} },
  {
    name: 'title length normalisation off (b = 0)',
    options: { rerank: { ...DEFAULT_RERANK_WEIGHTS, titleLengthNormalization: 0 } },
  },
  { name: 'no synonyms', options: { expandSynonyms: false } },
  { name: 'no typed phrases (pairs without stop words only)', options: { typedPhrases: false } },
  { name: 'no lead prior', options: { rerank: { ...DEFAULT_RERANK_WEIGHTS, lead: 0 } } },
  { name: 'no summary prior', options: { rerank: { ...DEFAULT_RERANK_WEIGHTS, summary: 0 } } },
  { name: 'no pair proximity', options: { passage: { ...DEFAULT_PASSAGE_WEIGHTS, proximity: 0 } } },
  {
    name: 'no small-field candidates',
    options: { fieldCandidates: { ...DEFAULT_FIELD_CANDIDATES, depth: 0 } },
  },
  { name: 'no URL path prior', options: { rerank: { ...DEFAULT_RERANK_WEIGHTS, url: 0 } } },
  {
    name: 'no series demotion',
    options: {
      rerank: { ...DEFAULT_RERANK_WEIGHTS, series: { ...DEFAULT_RERANK_WEIGHTS.series, factor: 1 } },
    },
  },
  { name: 'no headings prior', options: { rerank: { ...DEFAULT_RERANK_WEIGHTS, headings: 0 } } },
  {
    name: 'no priors (field-weighted bm25 only)',
    options: {
      rerank: {
        coverage: 0,
        title: 0,
        headings: 0,
        url: 0,
        lead: 0,
        summary: 0,
        titleLengthNormalization: 0,
        series: { ...DEFAULT_RERANK_WEIGHTS.series, factor: 1 },
      },
    },
  },
];

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dataDir = process.argv[2];
  if (dataDir === undefined) {
    console.error('usage: dev-cv.ts <SEARCH_QUALITY_DATA_DIR of a kept crawl>');
    process.exit(2);
  }
  printFoldFigures(compareOnDev(dataDir, ABLATIONS), dataDir);
}
