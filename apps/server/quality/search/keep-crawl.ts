/**
 * Deep-crawls the manuals through the API into a kept data directory (each
 * question set's into its own collection) and stops, asking no question: a fresh kept crawl for dev-loop.ts and
 * dev-cv.ts (after a change to what is indexed, say) without a held figure
 * being printed on the way, as run.ts would.
 *
 * `npx tsx quality/search/keep-crawl.ts <SEARCH_QUALITY_DATA_DIR>` from apps/server
 * (under the heavy lock). An existing kept crawl in that directory is reused, not redone.
 */
import { pathToFileURL } from 'node:url';
import { crawlManuals } from './crawled-manuals.js';
import { missingManuals } from './manuals.js';

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dataDir = process.argv[2];
  const missing = missingManuals();
  if (dataDir === undefined || missing !== null) {
    console.error(missing ?? 'usage: keep-crawl.ts <SEARCH_QUALITY_DATA_DIR>');
    process.exit(2);
  }
  const crawled = await crawlManuals({ dataDir, log: (line) => console.log(line) });
  const seconds = Math.max(...Object.values(crawled.crawlSeconds));
  console.log(
    `${crawled.documents.length} pages kept in ${dataDir}` +
      (seconds > 0 ? `, crawled in ${seconds.toFixed(0)} s` : ' (already there)'),
  );
  await crawled.stop();
}
