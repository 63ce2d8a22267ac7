import type { Command } from '../services.js';

/** A command's id (as in package.json) and how to load what it does. */
export interface CommandLoader {
  id: string;
  load(): Promise<Command>;
}

/**
 * Every command of the extension, loaded on its first use: activation
 * registers these ids only, so that activating the extension loads none of
 * the commands' code (nor the Runs view, the client or rxjs they use): it is
 * in `dist/parts.js` (see `parts.ts`).
 */
export const COMMAND_LOADERS: readonly CommandLoader[] = [
  { id: 'webdata.setApiKey', load: async () => (await import('../parts.js')).setApiKey },
  { id: 'webdata.clearApiKey', load: async () => (await import('../parts.js')).clearApiKey },
  { id: 'webdata.openSettings', load: async () => (await import('../parts.js')).openSettings },
  { id: 'webdata.showLog', load: async () => (await import('../parts.js')).showLog },
  { id: 'webdata.checkService', load: async () => (await import('../parts.js')).checkService },
  { id: 'webdata.extractFromUrls', load: async () => (await import('../parts.js')).extractFromUrls },
  { id: 'webdata.extractFromUrl', load: async () => (await import('../parts.js')).extractFromUrl },
  { id: 'webdata.crawlUrls', load: async () => (await import('../parts.js')).crawlUrls },
  { id: 'webdata.deepCrawl', load: async () => (await import('../parts.js')).deepCrawl },
  {
    id: 'webdata.searchCollection',
    load: async () => (await import('../parts.js')).searchCollection,
  },
  { id: 'webdata.runs.refresh', load: async () => (await import('../parts.js')).refreshRuns },
  { id: 'webdata.runs.openRow', load: async () => (await import('../parts.js')).openRow },
  {
    id: 'webdata.runs.filterByStatus',
    load: async () => (await import('../parts.js')).filterByStatus,
  },
  { id: 'webdata.runs.filterByType', load: async () => (await import('../parts.js')).filterByType },
  { id: 'webdata.runs.clearFilter', load: async () => (await import('../parts.js')).clearFilter },
  { id: 'webdata.loadMore', load: async () => (await import('../parts.js')).loadMore },
  { id: 'webdata.run.refresh', load: async () => (await import('../parts.js')).refreshRun },
  { id: 'webdata.run.cancel', load: async () => (await import('../parts.js')).cancelRun },
  { id: 'webdata.run.retry', load: async () => (await import('../parts.js')).retryRun },
  { id: 'webdata.run.runAgain', load: async () => (await import('../parts.js')).runAgain },
  { id: 'webdata.run.delete', load: async () => (await import('../parts.js')).deleteRun },
  { id: 'webdata.run.copyId', load: async () => (await import('../parts.js')).copyRunId },
  { id: 'webdata.run.showDetails', load: async () => (await import('../parts.js')).showRunDetails },
  { id: 'webdata.run.goToResult', load: async () => (await import('../parts.js')).goToResult },
  { id: 'webdata.run.saveResults', load: async () => (await import('../parts.js')).saveResults },
  {
    id: 'webdata.run.openAllResults',
    load: async () => (await import('../parts.js')).openAllResults,
  },
  { id: 'webdata.result.open', load: async () => (await import('../parts.js')).openResult },
  { id: 'webdata.result.copyUrl', load: async () => (await import('../parts.js')).copyResultUrl },
  { id: 'webdata.result.openPage', load: async () => (await import('../parts.js')).openResultPage },
  {
    id: 'webdata.result.showFailure',
    load: async () => (await import('../parts.js')).showResultFailure,
  },
  {
    id: 'webdata.result.openScreenshot',
    load: async () => (await import('../parts.js')).openScreenshot,
  },
];
