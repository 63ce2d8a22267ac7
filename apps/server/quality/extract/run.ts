/**
 * The extraction quality harness. `pnpm --filter @webdata/server bench extract`
 * (also run by `bench`), or from apps/server: `npx tsx quality/extract/run.ts`.
 * Needs `../shared/corpora/` beside the repository; says so when it is missing.
 */

import { formatReadabilityDev, measureReadabilityDev } from './readability-dev.js';
import { formatRealSet, measureRealSet } from './real-set.js';
import { CorpusMissingError } from './shared-corpus.js';

/** Runs every part of the harness and prints the figures. */
export async function runExtractionQuality(): Promise<void> {
  try {
    const report = await measureReadabilityDev();
    console.log(`\n${formatReadabilityDev(report)}`);
  } catch (error) {
    if (!(error instanceof CorpusMissingError)) throw error;
    console.log(`\nextraction quality, readability-dev: skipped: ${error.message}`);
  }
  try {
    const report = await measureRealSet();
    console.log(`\n${formatRealSet(report)}`);
  } catch (error) {
    if (!(error instanceof CorpusMissingError)) throw error;
    console.log(`\nextraction quality, own real set: skipped: ${error.message}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runExtractionQuality();
