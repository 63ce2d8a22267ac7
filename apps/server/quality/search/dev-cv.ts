/**
 * Ranking variants compared on the dev questions only, with a 2-fold check
 * inside dev: the dev questions alternate into halves A and B, and each
 * variant's MRR@10 is printed on all of dev and on each half. A variant worth
 * keeping wins on both halves (tuned on A, it must also win on B, and the
 * other way round), not only on the whole. Held questions are never asked.
 *
 * `npx tsx --conditions=source quality/search/dev-cv.ts <SEARCH_QUALITY_DATA_DIR>` from apps/server.
 */
import { pathToFileURL } from 'node:url';
import { DEFAULT_PASSAGE_WEIGHTS } from '../../src/search/passage.js';
import { DEFAULT_RERANK_WEIGHTS } from '../../src/search/rerank.js';
import {
  DEFAULT_FIELD_CANDIDATES,
  SqliteSearchIndex,
  type SqliteSearchIndexOptions,
} from '../../src/search/sqlite-search-index.js';
import { withKeptCrawl } from './kept-crawl.js';
import { judgedIdOf } from './manuals.js';
import { figuresOf, firstRelevant } from './metrics.js';
import { loadQuestions } from './question-sets.js';

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

/** Asks the dev questions of the kept crawl's index under each variant. */
export function compareOnDev(dataDir: string, variants: readonly RankingVariant[]): FoldFigures[] {
  return withKeptCrawl(dataDir, ({ db, owner, collection, origins }) => {
    const dev = loadQuestions().filter((q) => q.split === 'dev');
    const figures: FoldFigures[] = [];
    for (const variant of variants) {
      const index = new SqliteSearchIndex(db, variant.options);
      const positions = dev.map((q) => {
        const answer = index.search(owner, { query: q.question, collection, limit: 10 });
        return firstRelevant(
          answer.data.map((hit) => judgedIdOf(hit.url, origins)),
          q.relevant,
        );
      });
      const mrr = (keep: (i: number) => boolean) => figuresOf(positions.filter((_, i) => keep(i))).mrrAt10;
      figures.push({
        name: variant.name,
        dev: mrr(() => true),
        a: mrr((i) => i % 2 === 0),
        b: mrr((i) => i % 2 === 1),
        hitAt3: figuresOf(positions).hitAt3,
      });
    }
    return figures;
  });
}

/** Prints the figures, one variant a line. */
export function printFoldFigures(figures: readonly FoldFigures[]): void {
  console.log(`${'variant'.padEnd(48)}    dev      A      B  hit@3`);
  for (const f of figures) {
    console.log(
      `${f.name.padEnd(48)} ${f.dev.toFixed(3)} ${f.a.toFixed(3)} ${f.b.toFixed(3)}   ${f.hitAt3.toFixed(2)}`,
    );
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
  { name: 'no lead prior', options: { rerank: { ...DEFAULT_RERANK_WEIGHTS, lead: 0 } } },
  { name: 'no summary prior', options: { rerank: { ...DEFAULT_RERANK_WEIGHTS, summary: 0 } } },
  { name: 'no pair proximity', options: { passage: { ...DEFAULT_PASSAGE_WEIGHTS, proximity: 0 } } },
  {
    name: 'no small-field candidates',
    options: { fieldCandidates: { ...DEFAULT_FIELD_CANDIDATES, depth: 0 } },
  },
  { name: 'no URL path prior', options: { rerank: { ...DEFAULT_RERANK_WEIGHTS, url: 0 } } },
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
  printFoldFigures(compareOnDev(dataDir, ABLATIONS));
}
