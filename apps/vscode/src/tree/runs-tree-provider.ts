import { merge, Subject, type Subscription } from 'rxjs';
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection.js';
import { needsFailedPages } from '../runs/retry-helps.js';
import type { RunFilter } from '../runs/run-types.js';
import { type RunsLoader, StaleLoadError } from '../runs/runs-loader.js';
import type { RunsStore } from '../runs/runs-store.js';
import type { Log } from '../ui/log.js';
import { runsViewActions } from '../ui/runs-view-message.js';
import { coalesceRedraws, TREE_REDRAW_SPACING_MS } from './coalesce-redraws.js';
import type { NodeView, RunsNode, RunsTreeModel } from './runs-tree-model.js';

/**
 * The Runs view's data provider: a thin adapter from {@link RunsTreeModel}
 * to VS Code. It loads what VS Code asks to see (the first page of runs,
 * the results of an expanded run) and redraws exactly the nodes the model
 * says changed.
 */
export class RunsTreeProvider implements vscode.TreeDataProvider<RunsNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<RunsNode[] | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  readonly #model: RunsTreeModel;
  readonly #store: RunsStore;
  readonly #loader: RunsLoader;
  readonly #connection: Connection;
  readonly #log: Log;
  readonly #subscription: Subscription;
  readonly #redrawAll = new Subject<undefined>();

  constructor(model: RunsTreeModel, store: RunsStore, loader: RunsLoader, connection: Connection, log: Log) {
    this.#model = model;
    this.#store = store;
    this.#loader = loader;
    this.#connection = connection;
    this.#log = log;
    this.#subscription = merge(model.changes$, this.#redrawAll)
      .pipe(coalesceRedraws<RunsNode>(TREE_REDRAW_SPACING_MS))
      .subscribe((nodes) => this.#changed.fire(nodes));
  }

  /** Redraws every node (the relative times move on; nothing is requested). */
  redrawAll(): void {
    this.#redrawAll.next(undefined);
  }

  getTreeItem(node: RunsNode): vscode.TreeItem {
    if (node.kind === 'run') this.#readFailedPages(node.runId);
    return toTreeItem(this.#model.view(node, Date.now()), node);
  }

  /**
   * An ended run whose Retry depends on why its pages failed has them read once (per snapshot):
   * its row offers Retry only where it can help. Its row is redrawn when they are in.
   */
  #readFailedPages(runId: string): void {
    const run = this.#store.get(runId);
    if (!run || !needsFailedPages(run) || this.#store.failedPagesOf(runId) !== undefined) return;
    if (!this.#connection.hasClient()) return;
    this.#loader.loadFailedPages(runId).catch((error: unknown) => {
      if (!(error instanceof StaleLoadError))
        this.#log.error(`could not read the failed pages of ${runId}`, error);
    });
  }

  async getChildren(node?: RunsNode): Promise<RunsNode[]> {
    if (!node) return this.#roots();
    if (node.kind === 'run' && this.#store.resultsOf(node.runId).load.state === 'unloaded') {
      await this.#loader
        .loadResults(node.runId)
        .catch((error: unknown) => this.#log.error(`could not list the results of ${node.runId}`, error));
    }
    return this.#model.children(node);
  }

  getParent(node: RunsNode): RunsNode | undefined {
    if (node.kind === 'result' || node.kind === 'more-results' || node.kind === 'message') {
      return this.#model.runNode(node.runId);
    }
    if (node.kind === 'screenshot') {
      return this.#model
        .children(this.#model.runNode(node.runId))
        .find((n) => n.id === `${node.runId}/${node.resultId}`);
    }
    return undefined;
  }

  async #roots(): Promise<RunsNode[]> {
    const roots = await this.#listedRoots();
    // No run listed, and the service at fault or a filter matching none: what to do, below the message.
    if (roots.length > 0) return roots;
    return this.#model.actionNodes(runsViewActions(this.#connection.state, isFiltered(this.#store.filter)));
  }

  async #listedRoots(): Promise<RunsNode[]> {
    const state = this.#connection.state;
    if (state === 'noKey' || !this.#connection.hasClient()) return [];
    // A failed listing is not tried again from here: the failure redraws the tree, which would
    // ask again at once, a request loop for as long as the key is wrong or the service is down.
    // "Try again" (Refresh Runs) and the live refresh, once the service answers, list again.
    // Meanwhile the runs listed before, if any, stay (stale: the view's message says so).
    if (this.#store.listState.state === 'error') return this.#model.roots();
    if (this.#store.listState.state !== 'loaded') {
      try {
        await this.#loader.loadFirstPage();
      } catch (error) {
        // Of the previous connection: the new one's listing says how it stands.
        if (error instanceof StaleLoadError) return this.#model.roots();
        const next = this.#connection.reportFailure(error);
        this.#log.error(`could not list runs at ${this.#connection.baseUrl} (${next})`, error);
        return this.#model.roots();
      }
    }
    this.#connection.reportSuccess();
    return this.#model.roots();
  }

  dispose(): void {
    this.#subscription.unsubscribe();
    this.#changed.dispose();
  }
}

function toTreeItem(view: NodeView, node: RunsNode): vscode.TreeItem {
  const item = new vscode.TreeItem(
    view.label,
    view.collapsible === 'collapsed'
      ? vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.None,
  );
  item.id = view.id;
  item.description = view.description;
  item.tooltip = view.tooltip;
  item.contextValue = view.contextValue;
  if (view.icon) {
    item.iconPath = new vscode.ThemeIcon(
      view.icon.id,
      view.icon.color ? new vscode.ThemeColor(view.icon.color) : undefined,
    );
  }
  if (view.command) {
    // An action's command (Set API Key…, Try Again) takes no node: given one, it would read it as its input.
    const args = node.kind === 'action' ? [] : [node];
    item.command = { command: view.command.id, title: view.command.title, arguments: args };
  }
  return item;
}

function isFiltered(filter: RunFilter): boolean {
  return filter.status !== undefined || filter.type !== undefined;
}
