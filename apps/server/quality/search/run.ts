/**
 * Search quality on real documentation: serves Debian's Python, Git,
 * SQLite and Django HTML manuals from 127.0.0.1, deep-crawls them through the real
 * server's API, each question set's manuals into a collection of its own
 * (question-sets.ts), asks each set's judged questions, and prints hit@1,
 * hit@3 and MRR@10 per split (dev, held, held-sqlite, dev-django) for our
 * `POST /api/v1/search` beside plain FTS5 and MiniSearch defaults indexing
 * the same set's pages (their text read back through the API) in the same run.
 *
 * `npx tsx quality/search/run.ts` from apps/server (or `pnpm bench search`):
 * each set in a server of its own, crawled afresh. SEARCH_QUALITY_DATA_DIR=<dir>
 * keeps one server's crawl of every set there (the dev tools' kept crawl) and
 * reuses it on the next run. Only dev misses are listed: the held part is
 * never looked into.
 */
import { pathToFileURL } from 'node:url';
import { BASELINES, type Ranker } from './baselines.js';
import { type CrawlOptions, crawlManuals } from './crawled-manuals.js';
import { judgedIdOf, missingManuals } from './manuals.js';
import { figuresOf, firstRelevant, type JudgedQuestion, percentile, type QualityFigures } from './metrics.js';
import { loadQuestions, QUESTION_SETS, type QuestionSet, splitLabel } from './question-sets.js';

type Split = JudgedQuestion['split'];

/** The figures of one ranker on one question set. */
export interface RankerReport {
  name: string;
  /** Figures per split the set has (the SQLite set: held only). */
  figures: Partial<Record<Split, QualityFigures>>;
  /** Per-question latency, milliseconds. */
  p50Ms: number;
  p95Ms: number;
  /** Where that latency was measured. */
  measuredAt: 'HTTP' | 'in-process';
}

/** What one run measured on one question set (its own collection, its own baselines). */
export interface QuestionSetReport {
  set: QuestionSet;
  documents: number;
  /**
   * Pages of other sets in the same server. Every collection of a server
   * shares one full-text index, whose bm25 statistics (document frequencies,
   * average lengths) count them too, while the baselines index the set's
   * pages alone: 0 is the like-for-like comparison.
   */
  pagesOfOtherSets: number;
  /** Seconds its crawl took in this run (0: a kept crawl). */
  crawlSeconds: number;
  rankers: RankerReport[];
  /** Judged pages the crawl did not reach (a question about them cannot be answered by anyone). */
  notCrawled: string[];
  /** Dev questions without a relevant page in our top three, with what we answered. */
  devMisses: { id: string; question: string; top: (string | null)[] }[];
}

/** What one run of the harness measured, set by set. */
export interface ManualsQualityReport {
  sets: QuestionSetReport[];
}

/**
 * Crawls every set's manuals (each set into its own collection) and measures
 * our search against the baselines on each set's questions and pages.
 * Throws with the install command when a manual is missing, and with the
 * problems when a question file is broken (before crawling anything).
 */
export async function runManualsQuality(
  options: CrawlOptions = {},
  sets: readonly QuestionSet[] = QUESTION_SETS,
): Promise<ManualsQualityReport> {
  const questionsOf = checkedQuestions(sets);
  const crawled = await crawlManuals({ ...options, sets });
  try {
    const reports: QuestionSetReport[] = [];
    for (const [set, questions] of questionsOf) {
      const documents = crawled.documents.filter((doc) => doc.collection === set.collection);
      const idOf = (url: string) => judgedIdOf(url, crawled.origins);
      const crawledIds = new Set(documents.map((doc) => idOf(doc.url)));
      const ours: Ranker = async (question) => {
        const answer = await crawled.call('POST', '/api/v1/search', {
          query: question,
          collection: set.collection,
          limit: 10,
        });
        if (answer.status !== 200) throw new Error(`search failed: ${JSON.stringify(answer.body)}`);
        return (answer.body.data as { url: string }[]).map((hit) => hit.url);
      };
      const rankers: [string, Ranker, RankerReport['measuredAt']][] = [
        ['webdata POST /search', ours, 'HTTP'],
        ...BASELINES.map(({ name, build }): [string, Ranker, RankerReport['measuredAt']] => [
          name,
          build(documents),
          'in-process',
        ]),
      ];
      const devMisses: QuestionSetReport['devMisses'] = [];
      const rankerReports: RankerReport[] = [];
      for (const [name, rank, measuredAt] of rankers) {
        const latencies: number[] = [];
        const positions = new Map<Split, number[]>(set.splits.map((split) => [split, []]));
        for (const q of questions) {
          const started = performance.now();
          const urls = await rank(q.question);
          latencies.push(performance.now() - started);
          const ids = urls.map(idOf);
          const position = firstRelevant(ids, q.relevant);
          positions.get(q.split)?.push(position);
          if (rank === ours && q.split === 'dev' && (position < 0 || position >= 3)) {
            devMisses.push({ id: q.id, question: q.question, top: ids.slice(0, 3) });
          }
        }
        rankerReports.push({
          name,
          figures: Object.fromEntries([...positions].map(([split, p]) => [split, figuresOf(p)])),
          p50Ms: percentile(latencies, 0.5),
          p95Ms: percentile(latencies, 0.95),
          measuredAt,
        });
      }
      reports.push({
        set,
        documents: documents.length,
        pagesOfOtherSets: crawled.documents.length - documents.length,
        crawlSeconds: crawled.crawlSeconds[set.collection] ?? 0,
        rankers: rankerReports,
        notCrawled: [...new Set(questions.flatMap((q) => q.relevant))].filter((id) => !crawledIds.has(id)),
        devMisses: devMisses.sort((a, b) => a.id.localeCompare(b.id)),
      });
    }
    return { sets: reports };
  } finally {
    await crawled.stop();
  }
}

/**
 * Every set's questions, each file checked, once every manual is known to be
 * installed: throws with the install command or the file's problems, before
 * anything is crawled.
 */
function checkedQuestions(sets: readonly QuestionSet[]): Map<QuestionSet, JudgedQuestion[]> {
  const missing = missingManuals(sets.flatMap((set) => set.manuals));
  if (missing !== null) throw new Error(missing);
  return new Map(sets.map((set) => [set, loadQuestions(set)]));
}

/**
 * {@link runManualsQuality} with each set in a server of its own, crawled
 * into a fresh temporary directory: our bm25 statistics then count the set's
 * pages alone, as the baselines' do, and as they would for a user who crawls
 * that manual into a new server.
 */
export async function runManualsQualityApart(
  options: Omit<CrawlOptions, 'dataDir' | 'sets'> = {},
  sets: readonly QuestionSet[] = QUESTION_SETS,
): Promise<ManualsQualityReport> {
  checkedQuestions(sets); // before the first set's crawl, not after it
  const reports: QuestionSetReport[] = [];
  for (const set of sets) reports.push(...(await runManualsQuality(options, [set])).sets);
  return { sets: reports };
}

/**
 * The harness's entry: with a data directory, every set in one kept server
 * (reused by the next run and by the dev tools); without one, each set apart.
 */
export function runManualsQualityFor(options: CrawlOptions): Promise<ManualsQualityReport> {
  return options.dataDir === undefined ? runManualsQualityApart(options) : runManualsQuality(options);
}

/** Prints the report, one table per set: baselines beside ours, each split on its own line. */
export function printManualsQuality(report: ManualsQualityReport): void {
  for (const setReport of report.sets) printQuestionSet(setReport);
}

function printQuestionSet(report: QuestionSetReport): void {
  const { set } = report;
  const [ours, fts5] = report.rankers;
  const counts = set.splits.map(
    (split) => `${ours?.figures[split]?.questions ?? 0} ${splitLabel(set, split)}`,
  );
  const total = set.splits.reduce((sum, split) => sum + (ours?.figures[split]?.questions ?? 0), 0);
  console.log(
    `\nsearch quality on ${set.title}: ${report.documents} pages deep-crawled through the API into collection ${set.collection}` +
      `${report.crawlSeconds > 0 ? ` in ${report.crawlSeconds.toFixed(0)} s` : ' (kept crawl)'}, ${total} judged questions (${counts.join(', ')})`,
  );
  console.log(
    report.pagesOfOtherSets === 0
      ? '  (a server of its own: our bm25 statistics count these pages alone, as the baselines do)'
      : `  (one server with ${report.pagesOfOtherSets} pages of other sets: our bm25 statistics count them too, the baselines' do not)`,
  );
  const width = Math.max(5, ...set.splits.map((split) => splitLabel(set, split).length));
  console.log(
    `  ${'ranker'.padEnd(30)} ${'split'.padEnd(width)} ${'hit@1'.padStart(6)} ${'hit@3'.padStart(6)} ${'MRR@10'.padStart(7)}   latency p50 / p95 ms`,
  );
  const line = (name: string, label: string, f: QualityFigures, latency: string) =>
    `  ${name.padEnd(30)} ${label.padEnd(width)} ${f.hitAt1.toFixed(2).padStart(6)} ${f.hitAt3.toFixed(2).padStart(6)} ${f.mrrAt10.toFixed(3).padStart(7)}   ${latency}`;
  for (const r of report.rankers) {
    set.splits.forEach((split, i) => {
      const f = r.figures[split];
      if (f === undefined) return;
      const latency = `${r.p50Ms.toFixed(1)} / ${r.p95Ms.toFixed(1)} (${r.measuredAt})`;
      console.log(line(i === 0 ? r.name : '', splitLabel(set, split), f, i === 0 ? latency : ''));
    });
  }
  if (ours && fts5) {
    const gains = set.splits.map((split) => {
      const gain = (ours.figures[split]?.mrrAt10 ?? 0) - (fts5.figures[split]?.mrrAt10 ?? 0);
      return `${splitLabel(set, split)} ${gain >= 0 ? '+' : ''}${gain.toFixed(3)}`;
    });
    console.log(
      `  MRR@10 above plain FTS5: ${gains.join(', ')} (floors on held: MRR@10 ≥ 0.70, hit@3 ≥ 0.85, +0.10 over FTS5)`,
    );
  }
  if (report.notCrawled.length > 0)
    console.log(`  judged pages the crawl did not reach: ${report.notCrawled.join(', ')}`);
  if (report.devMisses.length > 0) {
    console.log(`  dev questions without a relevant page in our top 3 (${report.devMisses.length}):`);
    for (const miss of report.devMisses) {
      console.log(
        `    ${miss.id} ${miss.question} → ${miss.top.map((id) => id ?? '?').join(', ') || '(nothing)'}`,
      );
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const missing = missingManuals();
  if (missing !== null) {
    console.error(missing);
    process.exit(2);
  }
  printManualsQuality(
    await runManualsQualityFor({
      dataDir: process.env.SEARCH_QUALITY_DATA_DIR,
      embeddings: embeddingsOption(),
      log: (line) => console.log(line),
    }),
  );
}

/**
 * `SEARCH_QUALITY_EMBEDDINGS=local`: the server's semantic path on with a
 * real local model (see {@link CrawlOptions.embeddings}); unset: lexical only.
 */
export function embeddingsOption(value = process.env.SEARCH_QUALITY_EMBEDDINGS): 'local' | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'local') return 'local';
  throw new Error(`SEARCH_QUALITY_EMBEDDINGS: 'local' or unset (got ${value})`);
}
