/**
 * What the semantic path costs with a real local model, in one run: the
 * Octave manual (a dev set, 506 pages) deep-crawled through the API into a
 * fresh server without embeddings and with them (`embeddings: 'local'`, the
 * Universal Sentence Encoder on one core), alternating, then its dev
 * questions asked over HTTP of each server: indexing pages/s and search
 * latency, each beside the other. Held questions are never asked.
 *
 * `npx tsx --conditions=source quality/search/embeddings-cost.ts [rounds]` from apps/server
 * (under the heavy lock; a round takes about four minutes).
 */
import { pathToFileURL } from 'node:url';
import { crawlManuals } from './crawled-manuals.js';
import { missingManuals } from './manuals.js';
import { percentile } from './metrics.js';
import { loadQuestions, OCTAVE_QUESTIONS } from './question-sets.js';

/** One crawl and its questions, with or without embeddings. */
export interface CostFigures {
  embeddings: boolean;
  pages: number;
  crawlSeconds: number;
  searchP50Ms: number;
  searchP95Ms: number;
}

/** Crawls the Octave manual into a fresh server and asks its dev questions over HTTP. */
export async function measureCost(embeddings: boolean): Promise<CostFigures> {
  const crawled = await crawlManuals({
    sets: [OCTAVE_QUESTIONS],
    embeddings: embeddings ? 'local' : undefined,
  });
  try {
    const latencies: number[] = [];
    for (const q of loadQuestions(OCTAVE_QUESTIONS).filter((q) => q.split === 'dev')) {
      const started = performance.now();
      const answer = await crawled.call('POST', '/api/v1/search', {
        query: q.question,
        collection: OCTAVE_QUESTIONS.collection,
        limit: 10,
      });
      latencies.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`search failed: ${JSON.stringify(answer.body)}`);
    }
    return {
      embeddings,
      pages: crawled.documents.length,
      crawlSeconds: crawled.crawlSeconds[OCTAVE_QUESTIONS.collection] ?? 0,
      searchP50Ms: percentile(latencies, 0.5),
      searchP95Ms: percentile(latencies, 0.95),
    };
  } finally {
    await crawled.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const missing = missingManuals(OCTAVE_QUESTIONS.manuals);
  if (missing !== null) {
    console.error(missing);
    process.exit(2);
  }
  const rounds = Number(process.argv[2] ?? '1');
  console.log('  round  embeddings  pages  crawl s  pages/s  search p50 / p95 ms (HTTP)');
  for (let round = 1; round <= rounds; round += 1) {
    // Alternating, the order swapped each round, so neither always runs on a warmer machine.
    for (const embeddings of round % 2 === 1 ? [false, true] : [true, false]) {
      const f = await measureCost(embeddings);
      console.log(
        `  ${String(round).padStart(5)}  ${(f.embeddings ? 'local' : 'none').padEnd(10)}  ${String(f.pages).padStart(5)}  ${f.crawlSeconds.toFixed(1).padStart(7)}  ${(f.pages / f.crawlSeconds).toFixed(1).padStart(7)}  ${f.searchP50Ms.toFixed(1)} / ${f.searchP95Ms.toFixed(1)}`,
      );
    }
  }
}
