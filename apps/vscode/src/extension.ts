import { BehaviorSubject, map, type Subscription } from 'rxjs';
import * as vscode from 'vscode';
import { cancelRun } from './commands/cancel-run.js';
import { clearApiKey } from './commands/clear-api-key.js';
import { clearFilter } from './commands/clear-filter.js';
import { copyRunId } from './commands/copy-run-id.js';
import { crawlUrls } from './commands/crawl-urls.js';
import { deepCrawl } from './commands/deep-crawl.js';
import { deleteRun } from './commands/delete-run.js';
import { extractFromUrl } from './commands/extract-from-url.js';
import { extractFromUrls } from './commands/extract-from-urls.js';
import { filterByStatus } from './commands/filter-by-status.js';
import { filterByType } from './commands/filter-by-type.js';
import { loadMore } from './commands/load-more.js';
import { openAllResults } from './commands/open-all-results.js';
import { openResult } from './commands/open-result.js';
import { openScreenshot } from './commands/open-screenshot.js';
import { openSettings } from './commands/open-settings.js';
import { refreshRun } from './commands/refresh-run.js';
import { refreshRuns } from './commands/refresh-runs.js';
import { retryRun } from './commands/retry-run.js';
import { searchCollection } from './commands/search-collection.js';
import { setApiKey } from './commands/set-api-key.js';
import { showLog } from './commands/show-log.js';
import { Connection, SETTINGS } from './connection/connection.js';
import { ResultContentProvider } from './documents/result-content-provider.js';
import { ScreenshotFiles } from './documents/screenshot-files.js';
import { SearchHitDocuments } from './documents/search-hit-document.js';
import { LiveRuns, type LiveRunsOptions } from './runs/live-runs.js';
import { runsApiOf } from './runs/runs-api.js';
import { RunsLoader } from './runs/runs-loader.js';
import { RunsStore } from './runs/runs-store.js';
import { StartedRuns } from './runs/started-runs.js';
import type { Command, Services } from './services.js';
import { URL_DOCUMENTS, UrlCodeLensProvider } from './text/url-code-lens.js';
import { RunsTreeModel } from './tree/runs-tree-model.js';
import { RunsTreeProvider } from './tree/runs-tree-provider.js';
import { Log } from './ui/log.js';
import { RunsStatusBar } from './ui/status-bar.js';

const COMMANDS: Command[] = [
  setApiKey,
  clearApiKey,
  openSettings,
  showLog,
  extractFromUrls,
  extractFromUrl,
  crawlUrls,
  deepCrawl,
  searchCollection,
  refreshRuns,
  filterByStatus,
  filterByType,
  clearFilter,
  loadMore,
  refreshRun,
  cancelRun,
  retryRun,
  deleteRun,
  copyRunId,
  openAllResults,
  openResult,
  openScreenshot,
];

/**
 * When the bundle began to load: `scripts/build.mjs` puts this variable at
 * the top of `dist/extension.js` (absent when the sources run unbundled).
 */
declare const __webdataBundleStart: number | undefined;
/** Milliseconds loading `dist/core.js` took, once something used `@webdata/core` (see scripts/build.mjs). */
declare const __webdataCoreLoadMs: number | undefined;
/** Milliseconds from the bundle's first line to here, once every module in it is initialised. */
const LOAD_MS = typeof __webdataBundleStart === 'number' ? performance.now() - __webdataBundleStart : 0;

/** How often the relative times of a visible view are redrawn (no request is made). */
const REDRAW_TIMES_MS = 30_000;

/** What `activate` returns: the extension's parts, for its integration tests. */
export interface WebDataExtension {
  services: Services;
  statusBar: RunsStatusBar;
  /**
   * Milliseconds of the extension host's time the activation took, as the
   * extension measures it: loading the bundle ({@link loadMs}) and `activate`.
   * (VS Code's own measure is in "Developer: Show Running Extensions".)
   */
  activationMs: number;
  /** Milliseconds loading the bundle took (its modules initialised), before `activate` ran. */
  loadMs: number;
  /**
   * Milliseconds loading the client library (`@webdata/core`, bundled apart
   * and loaded on first use) took; `undefined` until it is used.
   */
  clientLoadMs(): number | undefined;
}

/**
 * Wires the extension: connection, store, tree, live updates, documents,
 * CodeLens, status bar and commands. Nothing is requested here: the Runs
 * view asks for what it shows when it is shown.
 */
export function activate(context: vscode.ExtensionContext): WebDataExtension {
  const started = performance.now();
  const log = new Log();
  const connection = new Connection(context.secrets, log);
  const settings = () => vscode.workspace.getConfiguration(SETTINGS);
  const store = new RunsStore();
  const loader = new RunsLoader(store, settings().get<number>('runs.pageSize', 50));
  const model = new RunsTreeModel(store);
  const provider = new RunsTreeProvider(model, store, loader, connection, log);
  const treeView = vscode.window.createTreeView('webdata.runs', {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
  const liveOptions = (): LiveRunsOptions => ({
    refreshMs: settings().get<number>('runs.refreshIntervalSeconds', 10) * 1000,
    refreshPageSize: 20,
    retryMs: 5_000,
  });
  const live = new LiveRuns(store, loader, liveOptions());
  const startedRuns = new StartedRuns();
  const statusBar = new RunsStatusBar(store, startedRuns);
  const codeLens = new UrlCodeLensProvider();
  const services: Services = {
    context,
    log,
    connection,
    store,
    loader,
    model,
    provider,
    live,
    started: startedRuns,
    screenshots: new ScreenshotFiles(context.globalStorageUri, connection, log),
    searchHits: new SearchHitDocuments(),
    treeView,
  };

  const visible$ = new BehaviorSubject(treeView.visible);
  const api$ = connection.client$.pipe(map((client) => (client ? runsApiOf(client) : undefined)));
  let liveSubscription: Subscription = live.run$(api$, visible$).subscribe();
  const subscriptions: Subscription[] = [
    connection.client$.subscribe((client) => {
      loader.setApi(client ? runsApiOf(client) : undefined);
      store.reset();
      provider.redrawAll();
    }),
    connection.state$.subscribe((state) => {
      void vscode.commands.executeCommand('setContext', 'webdata.connection', state);
      treeView.message = state === 'connected' ? `Connected to ${connection.baseUrl}` : undefined;
    }),
    store.changes$.subscribe(() => {
      const empty = store.listState.state === 'loaded' && store.runs.length === 0;
      void vscode.commands.executeCommand('setContext', 'webdata.runs.empty', empty);
    }),
    live.failures$.subscribe(({ source, error }) => {
      log.error(
        source === 'watch' ? 'watching the runs in flight failed (retrying)' : 'refreshing the runs failed',
        error,
      );
      const state = connection.reportFailure(error);
      if (state === 'unreachable' || state === 'unauthorized') {
        // The runs stay listed; the welcome view takes over only when the list is empty.
        treeView.message = `$(warning) Lost the connection to ${connection.baseUrl}: retrying…`;
      }
    }),
  ];

  let redrawTimer: ReturnType<typeof setInterval> | undefined;
  const onVisibility = (visible: boolean) => {
    visible$.next(visible);
    if (redrawTimer) clearInterval(redrawTimer);
    redrawTimer = visible ? setInterval(() => provider.redrawAll(), REDRAW_TIMES_MS) : undefined;
  };
  onVisibility(treeView.visible);

  context.subscriptions.push(
    log,
    connection,
    provider,
    treeView,
    statusBar,
    codeLens,
    services.searchHits,
    new ResultContentProvider(connection, log),
    treeView.onDidChangeVisibility((event) => onVisibility(event.visible)),
    vscode.languages.registerCodeLensProvider(URL_DOCUMENTS, codeLens),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SETTINGS}.codeLens.enabled`)) codeLens.settingChanged();
      if (event.affectsConfiguration(`${SETTINGS}.runs.pageSize`)) {
        loader.setPageSize(settings().get<number>('runs.pageSize', 50));
      }
      if (event.affectsConfiguration(`${SETTINGS}.runs.refreshIntervalSeconds`)) {
        liveSubscription.unsubscribe();
        live.configure(liveOptions());
        liveSubscription = live.run$(api$, visible$).subscribe();
      }
    }),
    ...COMMANDS.map((command) =>
      vscode.commands.registerCommand(command.id, (...args: unknown[]) => command.run(services, ...args)),
    ),
    {
      dispose: () => {
        if (redrawTimer) clearInterval(redrawTimer);
        liveSubscription.unsubscribe();
        for (const subscription of subscriptions) subscription.unsubscribe();
      },
    },
  );

  void connection.reconnect();
  const activationMs = LOAD_MS + performance.now() - started;
  log.info(`activated in ${activationMs.toFixed(1)} ms (loading the bundle ${LOAD_MS.toFixed(1)} ms)`);
  const clientLoadMs = () => (typeof __webdataCoreLoadMs === 'number' ? __webdataCoreLoadMs : undefined);
  return { services, statusBar, activationMs, loadMs: LOAD_MS, clientLoadMs };
}

export function deactivate(): void {
  // Everything is disposed through the extension context's subscriptions.
}
