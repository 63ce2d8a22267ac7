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
 * `npx tsx --conditions=source quality/search/dev-cv.ts <SEARCH_QUALITY_DATA_DIR> [--embeddings]`
 * from apps/server. `--embeddings` compares lexical with lexical + semantic
 * ({@link SEMANTIC_VARIANTS}) instead of the ablations: the kept crawl's pages
 * need their chunks (`embed-kept-crawl.ts`), and the dev questions are embedded
 * by a local embeddings server (the Universal Sentence Encoder) or by the
 * endpoint `WEBDATA_EMBEDDINGS_BASE_URL` (and `_MODEL`) names.
 * A kept crawl without a dev set's collection (made before the set existed)
 * is measured on the sets it holds; the missing ones are named, with how to
 * crawl them into a copy.
 */
import { pathToFileURL } from 'node:url';
import { DEFAULT_SEMANTIC_FUSION, OpenAiEmbedder, type SemanticFusion } from '../../src/search/embeddings.js';
import { DEFAULT_PASSAGE_WEIGHTS } from '../../src/search/passage.js';
import { DEFAULT_RERANK_WEIGHTS } from '../../src/search/rerank.js';
import {
  DEFAULT_FIELD_CANDIDATES,
  type SqliteSearchIndexOptions,
} from '../../src/search/sqlite-search-index.js';
import { type AskedDevSet, askDevBaselines, askDevSets, devQuestionsOf } from './dev-questions.js';
import { missingSetLines, withKeptCrawlOf } from './kept-crawl.js';
import { startLocalEmbeddings } from './local-embeddings-server.js';
import { figuresOf, percentile } from './metrics.js';
import { DEV_SETS, type QuestionSet } from './question-sets.js';
import { SENTENCE_ENCODER_MODEL } from './sentence-encoder.js';

/** A named set of ranking options. */
export interface RankingVariant {
  name: string;
  options: SqliteSearchIndexOptions;
  /** Search with the question's embedding too (the semantic path; needs `vectors`). */
  semantic?: boolean;
}

/** MRR@10 of one variant on all of dev and on its two alternating halves. */
export interface FoldFigures {
  name: string;
  dev: number;
  a: number;
  b: number;
  hitAt3: number;
  /** Median search time of a question, ms (in-process). */
  p50Ms: number;
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

function foldFigures(
  name: string,
  positions: readonly number[],
  inA: readonly boolean[],
  millis: readonly number[],
): FoldFigures {
  const mrr = (keep: (i: number) => boolean) => figuresOf(positions.filter((_, i) => keep(i))).mrrAt10;
  return {
    name,
    dev: mrr(() => true),
    a: mrr((i) => inA[i] === true),
    b: mrr((i) => inA[i] === false),
    hitAt3: figuresOf(positions).hitAt3,
    p50Ms: percentile(millis, 0.5),
  };
}

/**
 * Asks the dev questions of each dev set the kept crawl holds under each
 * variant, then of the plain baselines (their rows come after the
 * variants'): figures per set, and (with more than one set) for all together.
 * A semantic variant searches with each question's vector from `vectors`.
 */
export function compareOnDev(
  dataDir: string,
  variants: readonly RankingVariant[],
  sets: readonly QuestionSet[] = DEV_SETS,
  vectors?: ReadonlyMap<string, Float32Array>,
): DevComparison {
  return withKeptCrawlOf(dataDir, sets, ({ db, origins, sets: kept, missing }) => {
    const scopes: ScopeFigures[] = [];
    const rows: { name: string; asked: AskedDevSet[] }[] = [
      ...variants.map((variant) => ({
        name: variant.name,
        asked: askDevSets(db, origins, kept, variant.options, variant.semantic ? vectors : undefined),
      })),
      ...askDevBaselines(dataDir, origins, kept).map(({ name, sets }) => ({ name, asked: sets })),
    ];
    for (const { name, asked } of rows) {
      const perSet = asked.map((set) => ({
        scope: set.label,
        positions: set.positions,
        inA: set.positions.map((_, i) => i % 2 === 0),
        millis: set.millis,
      }));
      if (perSet.length > 1)
        perSet.push({
          scope: ALL_DEV,
          positions: perSet.flatMap((s) => s.positions),
          inA: perSet.flatMap((s) => s.inA),
          millis: perSet.flatMap((s) => s.millis),
        });
      for (const { scope, positions, inA, millis } of perSet) {
        let figures = scopes.find((s) => s.scope === scope);
        if (figures === undefined) {
          figures = { scope, questions: positions.length, figures: [] };
          scopes.push(figures);
        }
        figures.figures.push(foldFigures(name, positions, inA, millis));
      }
    }
    return { scopes, missing };
  });
}

/** Prints the figures, one table per scope, one variant a line. */
export function printFoldFigures(comparison: DevComparison, dataDir = '<kept crawl>'): void {
  for (const line of missingSetLines(dataDir, comparison.missing)) console.log(line);
  for (const { scope, questions, figures } of comparison.scopes) {
    console.log(`\n${`${scope} (${questions} questions)`.padEnd(48)}    dev      A      B  hit@3  p50 ms`);
    for (const f of figures) {
      console.log(
        `${f.name.padEnd(48)} ${f.dev.toFixed(3)} ${f.a.toFixed(3)} ${f.b.toFixed(3)}   ${f.hitAt3.toFixed(2)} ${f.p50Ms.toFixed(1).padStart(7)}`,
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

/** Semantic variants with a fusion of their own (the lexical ranking as by default). */
function fused(name: string, fusion: Partial<SemanticFusion>): RankingVariant {
  return {
    name,
    options: { semanticFusion: { ...DEFAULT_SEMANTIC_FUSION, ...fusion } },
    semantic: true,
  };
}

/**
 * The default (lexical) ranking beside lexical + semantic fused by RRF as the
 * server does (k 60, both lists alike), and the general fusion choices tried
 * around it (2026-11-27, none won: quality/search/README.md): RRF's k, the
 * semantic list's weight, its length, a cosine floor, meaning only re-ordering
 * the lexical top pages. "semantic order" (weight 1000: the nearest chunks'
 * order, the lexical one only after them) says what the model alone ranks.
 */
export const SEMANTIC_VARIANTS: readonly RankingVariant[] = [
  { name: 'lexical (default)', options: {} },
  fused('+ semantic, RRF k 60 (server default)', {}),
  fused('semantic order (weight 1000)', { weight: 1000 }),
  fused('RRF k 10', { k: 10 }),
  fused('semantic weight 0.25', { weight: 0.25 }),
  fused('semantic weight 0.1', { weight: 0.1 }),
  fused('semantic weight 0.1, k 20', { weight: 0.1, k: 20 }),
  fused('semantic top 10 only', { depth: 10 }),
  fused('cosine >= 0.5', { minSimilarity: 0.5 }),
  fused('re-order lexical top 5', { rerankDepth: 5 }),
  fused('re-order lexical top 20, weight 0.25', { rerankDepth: 20, weight: 0.25 }),
];

/**
 * Each question's embedding through an OpenAI-compatible endpoint (the
 * server's own client), one request per question as a search makes it; with
 * each request's time (the latency a search adds before it ranks).
 */
export async function embedQuestions(
  questions: readonly string[],
  embedder: OpenAiEmbedder,
): Promise<{ vectors: Map<string, Float32Array>; millis: number[] }> {
  const vectors = new Map<string, Float32Array>();
  const millis: number[] = [];
  for (const question of new Set(questions)) {
    const started = performance.now();
    const [vector] = await embedder.embed([question]);
    millis.push(performance.now() - started);
    if (vector !== undefined) vectors.set(question, vector);
  }
  return { vectors, millis };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const semantic = args.includes('--embeddings');
  const dataDir = args.find((arg) => !arg.startsWith('--'));
  if (dataDir === undefined) {
    console.error(
      'usage: dev-cv.ts <SEARCH_QUALITY_DATA_DIR of a kept crawl> [--embeddings]\n' +
        '  --embeddings: lexical beside lexical + semantic fusion choices; the kept crawl needs its chunks ' +
        '(embed-kept-crawl.ts), the questions are embedded by a local embeddings server ' +
        '(or the one WEBDATA_EMBEDDINGS_BASE_URL names)',
    );
    process.exit(2);
  }
  if (!semantic) printFoldFigures(compareOnDev(dataDir, ABLATIONS), dataDir);
  else {
    const given = process.env.WEBDATA_EMBEDDINGS_BASE_URL;
    const local = given ? null : await startLocalEmbeddings();
    try {
      const embedder = new OpenAiEmbedder({
        baseUrl: given ?? local!.url,
        model: (given ? process.env.WEBDATA_EMBEDDINGS_MODEL : undefined) ?? SENTENCE_ENCODER_MODEL,
        timeoutMs: 60_000,
      });
      const { vectors, millis } = await embedQuestions(devQuestionsOf(DEV_SETS), embedder);
      console.log(
        `${vectors.size} dev questions embedded, one request each: p50 ${percentile(millis, 0.5).toFixed(1)} ms, ` +
          `p95 ${percentile(millis, 0.95).toFixed(1)} ms (added to a search's time)`,
      );
      printFoldFigures(compareOnDev(dataDir, SEMANTIC_VARIANTS, DEV_SETS, vectors), dataDir);
    } finally {
      await local?.stop();
    }
  }
}
