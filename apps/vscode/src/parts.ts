/**
 * The entry of `dist/parts.js`: all of the extension that activation does
 * not need (the commands, and {@link makeServices} with the Runs view's
 * tree, store and live updates, the connection, the documents), bundled
 * apart from `dist/extension.js` so that the extension host neither loads
 * nor compiles it when the extension activates. `extension.ts` and
 * `commands/command-loaders.ts` import it on first use; `scripts/build.mjs`
 * turns those imports into a `require` of this file.
 */
export { cancelRun } from './commands/cancel-run.js';
export { checkService } from './commands/check-service.js';
export { clearApiKey } from './commands/clear-api-key.js';
export { clearFilter } from './commands/clear-filter.js';
export { copyResultUrl } from './commands/copy-result-url.js';
export { copyRunId } from './commands/copy-run-id.js';
export { crawlUrls } from './commands/crawl-urls.js';
export { deepCrawl } from './commands/deep-crawl.js';
export { deleteRun } from './commands/delete-run.js';
export { extractFromUrl } from './commands/extract-from-url.js';
export { extractFromUrls } from './commands/extract-from-urls.js';
export { filterByStatus } from './commands/filter-by-status.js';
export { filterByType } from './commands/filter-by-type.js';
export { goToResult } from './commands/go-to-result.js';
export { loadMore } from './commands/load-more.js';
export { openAllResults } from './commands/open-all-results.js';
export { openResult } from './commands/open-result.js';
export { openResultPage } from './commands/open-result-page.js';
export { openRow } from './commands/open-row.js';
export { openScreenshot } from './commands/open-screenshot.js';
export { openSettings } from './commands/open-settings.js';
export { refreshRun } from './commands/refresh-run.js';
export { refreshRuns } from './commands/refresh-runs.js';
export { retryRun } from './commands/retry-run.js';
export { runAgain } from './commands/run-again.js';
export { saveResults } from './commands/save-results.js';
export { searchCollection } from './commands/search-collection.js';
export { setApiKey } from './commands/set-api-key.js';
export { showLog } from './commands/show-log.js';
export { showResultFailure } from './commands/show-result-failure.js';
export { showRunDetails } from './commands/show-run-details.js';
export { makeServices } from './make-services.js';

/** Milliseconds loading `dist/core.js` took, once something used `@webdata/core` (see scripts/build.mjs). */
declare const __webdataCoreLoadMs: number | undefined;

/** Milliseconds loading the client library took; `undefined` until it is used (or when run unbundled). */
export function clientLoadMs(): number | undefined {
  return typeof __webdataCoreLoadMs === 'number' ? __webdataCoreLoadMs : undefined;
}
