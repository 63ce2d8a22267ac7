/**
 * The search part of `pnpm --filter @webdata/server bench` (alone:
 * `pnpm --filter @webdata/server bench search`): search latency over
 * synthetic collections of 10,000 and 100,000 documents, then ranking
 * quality on Debian's Python, Git, SQLite, Django and Octave manuals crawled
 * through the API (each question set in a server of its own), each
 * beside plain baselines measured in the same run.
 */
import { benchSearch } from './latency-bench.js';
import { missingManuals } from './manuals.js';
import { printManualsQuality, runManualsQualityFor } from './run.js';

/** Runs and prints the search benchmarks (`latencyOnly`: the synthetic latency part alone). */
export async function benchSearchAll(
  options: { built?: boolean; latencyOnly?: boolean } = {},
): Promise<void> {
  console.log('\nsearch latency (200 queries per size, in-memory SQLite, in-process)');
  console.log('  (baseline, same run: plain FTS5, the words OR-ed, bm25, top 10 row ids)');
  console.log('  documents   index s   p50 ms   p95 ms   plain FTS5 p50 ms   p95 ms');
  for (const f of benchSearch([10_000, 100_000])) {
    console.log(
      `  ${String(f.documents).padStart(9)} ${(f.indexMs / 1000).toFixed(1).padStart(9)} ${String(f.p50Ms).padStart(8)} ${String(f.p95Ms).padStart(8)} ${String(f.plainFts5P50Ms).padStart(19)} ${String(f.plainFts5P95Ms).padStart(8)}`,
    );
  }
  if (options.latencyOnly === true) return;
  const missing = missingManuals();
  if (missing !== null) {
    console.log(`\nsearch quality: not measured, ${missing}`);
    return;
  }
  printManualsQuality(
    await runManualsQualityFor({ built: options.built, dataDir: process.env.SEARCH_QUALITY_DATA_DIR }),
  );
}
