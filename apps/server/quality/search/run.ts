/**
 * Search quality on real documentation: serves Debian's Python and Git HTML
 * manuals from 127.0.0.1, deep-crawls them through the real server's API
 * into one collection, asks the judged questions of questions.json, and
 * prints hit@1, hit@3 and MRR@10 (dev and held apart) for our
 * `POST /api/v1/search` beside plain FTS5 and MiniSearch defaults indexing
 * the same pages (their text read back through the API) in the same run.
 *
 * `npx tsx quality/search/run.ts` from apps/server (or `pnpm bench search`).
 * SEARCH_QUALITY_DATA_DIR=<dir> keeps the crawl there and reuses it on the
 * next run. Only dev misses are listed: the held part is never looked into.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { miniSearchDefaults, plainFts5, type Ranker } from './baselines.js';
import { COLLECTION, type CrawlOptions, crawlManuals } from './crawled-manuals.js';
import { judgedIdOf, missingManuals } from './manuals.js';
import { figuresOf, firstRelevant, type JudgedQuestion, percentile, type QualityFigures } from './metrics.js';

const QUESTIONS_FILE = fileURLToPath(new URL('./questions.json', import.meta.url));

/** The figures of one ranker. */
export interface RankerReport {
  name: string;
  dev: QualityFigures;
  held: QualityFigures;
  /** Per-question latency, milliseconds. */
  p50Ms: number;
  p95Ms: number;
  /** Where that latency was measured. */
  measuredAt: 'HTTP' | 'in-process';
}

/** What one run of the harness measured. */
export interface ManualsQualityReport {
  documents: number;
  crawlSeconds: number;
  rankers: RankerReport[];
  /** Judged pages the crawl did not reach (a question about them cannot be answered by anyone). */
  notCrawled: string[];
  /** Dev questions without a relevant page in our top three, with what we answered. */
  devMisses: { id: string; question: string; top: (string | null)[] }[];
}

/** Reads the judged questions. */
export function loadQuestions(file = QUESTIONS_FILE): JudgedQuestion[] {
  return JSON.parse(readFileSync(file, 'utf8')) as JudgedQuestion[];
}

/**
 * Crawls the manuals and measures our search against the baselines.
 * Throws with the install command when a manual is missing.
 */
export async function runManualsQuality(options: CrawlOptions = {}): Promise<ManualsQualityReport> {
  const missing = missingManuals();
  if (missing !== null) throw new Error(missing);
  const questions = loadQuestions();
  const crawled = await crawlManuals(options);
  try {
    const idOf = (url: string) => judgedIdOf(url, crawled.origins);
    const crawledIds = new Set(crawled.documents.map((doc) => idOf(doc.url)));
    const notCrawled = [...new Set(questions.flatMap((q) => q.relevant))].filter((id) => !crawledIds.has(id));

    const ours: Ranker = async (question) => {
      const answer = await crawled.call('POST', '/api/v1/search', {
        query: question,
        collection: COLLECTION,
        limit: 10,
      });
      if (answer.status !== 200) throw new Error(`search failed: ${JSON.stringify(answer.body)}`);
      return (answer.body.data as { url: string }[]).map((hit) => hit.url);
    };
    const rankers: [string, Ranker, RankerReport['measuredAt']][] = [
      ['webdata POST /search', ours, 'HTTP'],
      ['plain FTS5 (porter, OR, bm25)', plainFts5(crawled.documents), 'in-process'],
      ['MiniSearch defaults', miniSearchDefaults(crawled.documents), 'in-process'],
    ];
    const reports: RankerReport[] = [];
    let devMisses: ManualsQualityReport['devMisses'] = [];
    for (const [name, rank, measuredAt] of rankers) {
      const latencies: number[] = [];
      const positions = { dev: [] as number[], held: [] as number[] };
      for (const q of questions) {
        const started = performance.now();
        const urls = await rank(q.question);
        latencies.push(performance.now() - started);
        const ids = urls.map(idOf);
        const position = firstRelevant(ids, q.relevant);
        positions[q.split].push(position);
        if (rank === ours && q.split === 'dev' && (position < 0 || position >= 3)) {
          devMisses.push({ id: q.id, question: q.question, top: ids.slice(0, 3) });
        }
      }
      reports.push({
        name,
        dev: figuresOf(positions.dev),
        held: figuresOf(positions.held),
        p50Ms: percentile(latencies, 0.5),
        p95Ms: percentile(latencies, 0.95),
        measuredAt,
      });
    }
    devMisses = devMisses.sort((a, b) => a.id.localeCompare(b.id));
    return {
      documents: crawled.documents.length,
      crawlSeconds: crawled.crawlSeconds,
      rankers: reports,
      notCrawled,
      devMisses,
    };
  } finally {
    await crawled.stop();
  }
}

/** Prints the report as a table, baselines beside ours, dev and held apart. */
export function printManualsQuality(report: ManualsQualityReport): void {
  const [ours, fts5] = report.rankers;
  const dev = report.rankers[0]?.dev.questions ?? 0;
  const held = report.rankers[0]?.held.questions ?? 0;
  console.log(
    `\nsearch quality on Debian's Python 3.11 and Git HTML manuals: ${report.documents} pages deep-crawled through the API` +
      `${report.crawlSeconds > 0 ? ` in ${report.crawlSeconds.toFixed(0)} s` : ' (kept crawl)'}, ${dev + held} judged questions (${dev} dev, ${held} held)`,
  );
  console.log(
    `  ${'ranker'.padEnd(30)} ${'split'.padEnd(5)} ${'hit@1'.padStart(6)} ${'hit@3'.padStart(6)} ${'MRR@10'.padStart(7)}   latency p50 / p95 ms`,
  );
  const line = (name: string, split: string, f: QualityFigures, latency: string) =>
    `  ${name.padEnd(30)} ${split.padEnd(5)} ${f.hitAt1.toFixed(2).padStart(6)} ${f.hitAt3.toFixed(2).padStart(6)} ${f.mrrAt10.toFixed(3).padStart(7)}   ${latency}`;
  for (const r of report.rankers) {
    console.log(
      line(r.name, 'dev', r.dev, `${r.p50Ms.toFixed(1)} / ${r.p95Ms.toFixed(1)} (${r.measuredAt})`),
    );
    console.log(line('', 'held', r.held, ''));
  }
  if (ours && fts5) {
    const gain = (split: 'dev' | 'held') => ours[split].mrrAt10 - fts5[split].mrrAt10;
    console.log(
      `  MRR@10 above plain FTS5: dev ${gain('dev') >= 0 ? '+' : ''}${gain('dev').toFixed(3)}, held ${gain('held') >= 0 ? '+' : ''}${gain('held').toFixed(3)}` +
        ` (floors on held: MRR@10 ≥ 0.70, hit@3 ≥ 0.85, +0.10 over FTS5)`,
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
    await runManualsQuality({
      dataDir: process.env.SEARCH_QUALITY_DATA_DIR,
      log: (line) => console.log(line),
    }),
  );
}
