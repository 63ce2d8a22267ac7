import { BehaviorSubject, map, type Subscription } from 'rxjs';
import * as vscode from 'vscode';
import { Connection } from './connection/connection.js';
import { stateAfter } from './connection/connection-state.js';
import { OutageWatch, serviceAnswers } from './connection/outage-watch.js';
import { ResultContentProvider } from './documents/result-content-provider.js';
import { RunDetailsDocuments } from './documents/run-details-document.js';
import { ScreenshotFiles } from './documents/screenshot-files.js';
import { SearchHitDocuments } from './documents/search-hit-document.js';
import { LiveRuns, type LiveRunsOptions } from './runs/live-runs.js';
import { runsApiOf } from './runs/runs-api.js';
import { RunsLoader, StaleLoadError } from './runs/runs-loader.js';
import { RunsStore } from './runs/runs-store.js';
import { StartedRuns } from './runs/started-runs.js';
import type { Services } from './services.js';
import { SETTINGS } from './settings.js';
import type { RunsNode } from './tree/runs-tree-model.js';
import { RunsTreeModel } from './tree/runs-tree-model.js';
import { RunsTreeProvider } from './tree/runs-tree-provider.js';
import { KeyStatus } from './ui/key-status.js';
import { describeError, Log } from './ui/log.js';
import { OutageStatus } from './ui/outage-status.js';
import { runsViewActions, runsViewMessage } from './ui/runs-view-message.js';
import { RunsStatusBar } from './ui/status-bar.js';
import { followKeyStep } from './ui/walkthrough-key-step.js';

/** How often the relative times of a visible view are redrawn (no request is made). */
const REDRAW_TIMES_MS = 30_000;

/**
 * Makes the extension's parts: connection, store, tree, live updates,
 * documents and status bar, wired together. Called once, on first need (the
 * Runs view shown, a command run), not at activation: this is where the
 * API key is read and the client made, and resolves once they are. Every
 * part is disposed with `context`.
 */
export async function makeServices(
  context: vscode.ExtensionContext,
  treeView: vscode.TreeView<RunsNode>,
): Promise<Services> {
  const log = new Log();
  const connection = new Connection(context.secrets, log);
  const settings = () => vscode.workspace.getConfiguration(SETTINGS);
  const store = new RunsStore();
  const loader = new RunsLoader(store, settings().get<number>('runs.pageSize', 50));
  const model = new RunsTreeModel(store);
  const provider = new RunsTreeProvider(model, store, loader, connection, log);
  const liveOptions = (): LiveRunsOptions => ({
    refreshMs: settings().get<number>('runs.refreshIntervalSeconds', 10) * 1000,
    refreshPageSize: 20,
    retryMs: 5_000,
  });
  const live = new LiveRuns(store, loader, liveOptions());
  const started = new StartedRuns();
  const statusBar = new RunsStatusBar(store, started);
  // While the service does not answer: /healthz now and then (2 s, backing off to 30 s); once it
  // answers, one small request with the key moves the connection on, and the view lists again.
  const outageWatch = new OutageWatch(connection.state$, {
    check: () => serviceAnswers(connection.baseUrl),
    confirm: async () => {
      if (!connection.hasClient()) return;
      try {
        await connection.client().runs.list({ limit: 1 });
      } catch (error) {
        connection.reportFailure(error);
        return;
      }
      log.info(`the Web Data service at ${connection.baseUrl} answers again`);
      connection.reportSuccess();
      // What the outage left stale: the listing (failed, or its runs old) and the runs in flight.
      store.relist();
      provider.redrawAll();
      live.refreshSoon();
    },
    onCheck: (answered, error) =>
      log.info(
        `${connection.baseUrl}/healthz ${answered ? 'answers' : `does not answer${error ? ` (${describeError(error)})` : ''}`}`,
      ),
  });
  const outage = new OutageStatus(connection.state$, outageWatch, () => connection.baseUrl);
  const services: Services = {
    context,
    log,
    connection,
    store,
    loader,
    model,
    provider,
    live,
    started,
    statusBar,
    keyStatus: new KeyStatus(connection.keyVerdict$, () => connection.baseUrl),
    outage,
    outageWatch,
    screenshots: new ScreenshotFiles(context.globalStorageUri, connection, log),
    searchHits: new SearchHitDocuments(),
    runDetails: new RunDetailsDocuments(connection, store),
    treeView,
  };

  const showMessage = () => {
    const message = runsViewMessage(
      connection.state,
      connection.baseUrl,
      store.runs.length > 0,
      store.filter,
    );
    // Set on change only: the store changes with every snapshot of a run in flight.
    if (treeView.message !== message) treeView.message = message;
  };
  // The commands of the rows shown in place of runs while none is listed (Try Again, …), as drawn.
  let actionsDrawn = '';

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
      showMessage();
      // With no run listed, the state alone decides the rows (what to do): redraw when they change.
      const filtered = store.filter.status !== undefined || store.filter.type !== undefined;
      const actions = runsViewActions(state, filtered)
        .map((action) => action.command)
        .join();
      if (store.runs.length === 0 && actions !== actionsDrawn) provider.redrawAll();
      actionsDrawn = actions;
    }),
    // The walkthrough's "Set the API key" step: ticked once the service took a key (however it was
    // set: the command, an error message's button, another window), unticked when it refuses it.
    followKeyStep(connection.keyVerdict$, context.extension.id),
    store.changes$.subscribe(() => {
      const empty = store.listState.state === 'loaded' && store.runs.length === 0;
      void vscode.commands.executeCommand('setContext', 'webdata.runs.empty', empty);
      showMessage();
    }),
    live.failures$.subscribe(({ source, error }) => {
      // Of the previous connection (the address or key changed while it was out): says nothing of this one.
      if (error instanceof StaleLoadError) return;
      log.error(
        source === 'watch' ? 'watching the runs in flight failed (retrying)' : 'refreshing the runs failed',
        error,
      );
      // The runs stay listed, and the view's message says why they stopped updating.
      connection.reportFailure(error);
    }),
    live.answered$.subscribe(() => connection.reportSuccess()),
    // An action refused with the key (401), or finding no service: the view and the status bar say so,
    // until a key is taken or the service is back. An action's own message said so already: no warning more.
    log.failures$.subscribe(({ error, shown }) => {
      const state = stateAfter(error);
      if (state === 'unauthorized') connection.reportFailure(error);
      if (state === 'unreachable') {
        if (shown) outage.quietly(() => connection.reportFailure(error));
        else connection.reportFailure(error);
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
    statusBar,
    services.keyStatus,
    outage,
    outageWatch,
    services.searchHits,
    services.runDetails,
    new ResultContentProvider(connection, log),
    treeView.onDidChangeVisibility((event) => onVisibility(event.visible)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SETTINGS}.runs.pageSize`)) {
        loader.setPageSize(settings().get<number>('runs.pageSize', 50));
      }
      if (event.affectsConfiguration(`${SETTINGS}.runs.refreshIntervalSeconds`)) {
        liveSubscription.unsubscribe();
        live.configure(liveOptions());
        liveSubscription = live.run$(api$, visible$).subscribe();
      }
    }),
    {
      dispose: () => {
        if (redrawTimer) clearInterval(redrawTimer);
        liveSubscription.unsubscribe();
        for (const subscription of subscriptions) subscription.unsubscribe();
      },
    },
  );

  await connection.reconnect();
  return services;
}
