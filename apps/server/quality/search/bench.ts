/**
 * The search part of `pnpm --filter @webdata/server bench` (alone:
 * `pnpm --filter @webdata/server bench search`): search latency over
 * synthetic collections of 10,000 and 100,000 documents and over real
 * pages (the dev manuals, converted as the crawl does, asked the dev
 * questions; sizes in BENCH_SEARCH_REAL_SIZES, default 10000), then ranking
 * quality on Debian's Python, Git, SQLite, Django and Octave manuals crawled
 * through the API (each question set in a server of its own), each
 * beside plain baselines measured in the same run.
 */
import { benchSearch } from './latency-bench.js';
import { missingManuals } from './manuals.js';
import { REAL_PAGE_LATENCY_SETS } from './question-sets.js';
import { benchRealPages, realPages } from './real-page-latency.js';
import { embeddingsOption, printManualsQuality, runManualsQualityFor } from './run.js';

/** Runs and prints the search benchmarks (`latencyOnly`: the latency parts alone, synthetic and real pages). */
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
  await printRealPageLatency();
  if (options.latencyOnly === true) return;
  const missing = missingManuals();
  if (missing !== null) {
    console.log(`\nsearch quality: not measured, ${missing}`);
    return;
  }
  printManualsQuality(
    await runManualsQualityFor({
      built: options.built,
      dataDir: process.env.SEARCH_QUALITY_DATA_DIR,
      embeddings: embeddingsOption(),
    }),
  );
}

/** The real-page part of the latency bench: the dev manuals' pages, the dev questions as typed. */
async function printRealPageLatency(): Promise<void> {
  const manuals = [...new Set(REAL_PAGE_LATENCY_SETS.flatMap((set) => set.manuals))];
  const missing = missingManuals(manuals);
  if (missing !== null) {
    console.log(`\nsearch latency on real pages: not measured, ${missing}`);
    return;
  }
  const sizes = (process.env.BENCH_SEARCH_REAL_SIZES ?? '10000').split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n <= 0))
    throw new Error(
      `BENCH_SEARCH_REAL_SIZES: positive whole numbers, comma-separated (got ${process.env.BENCH_SEARCH_REAL_SIZES})`,
    );
  const pages = realPages(manuals);
  console.log(
    `\nsearch latency on real pages (${pages.length} pages of the ${manuals.map((m) => m.name).join(', ')} manuals, converted as the crawl does,` +
      ' repeated under URLs of their own up to each size; in-memory SQLite, in-process; every dev question as typed, each new to the index',
    " (after an untimed round of the other dev manuals' questions), then all of them again at once: the best case, every phrase and page kept)",
  );
  console.log("  (baseline, same run: plain FTS5, the question's words OR-ed, bm25, top 10 row ids)");
  console.log(
    '  (the first stage answered from its in-memory copy, built before the questions: MB, build s, longest slice ms)',
  );
  console.log(
    '  documents   questions   p50 ms   p95 ms   plain FTS5 p50 ms   p95 ms   again p50 / p95 ms (FTS5)   copy MB   build s   slice ms',
  );
  for (const f of await benchRealPages(pages, sizes)) {
    const copy =
      f.mirror === null
        ? '     none'
        : `${(f.mirror.bytes / 1048576).toFixed(0).padStart(9)} ${(f.mirror.buildMs / 1000).toFixed(1).padStart(9)} ${f.mirror.longestSliceMs.toFixed(0).padStart(10)}`;
    console.log(
      `  ${String(f.documents).padStart(9)} ${String(f.queries).padStart(11)} ${String(f.p50Ms).padStart(8)} ${String(f.p95Ms).padStart(8)} ${String(f.plainFts5P50Ms).padStart(19)} ${String(f.plainFts5P95Ms).padStart(8)} ${`${f.again.p50Ms} / ${f.again.p95Ms} (${f.again.plainFts5P50Ms} / ${f.again.plainFts5P95Ms})`.padStart(27)} ${copy}`,
    );
  }
}
