import { inInputOrder, isTerminalStatus } from '@webdata/core';
import { mergeMap, type Observable } from 'rxjs';
import { pendingText } from '../runs/run-progress.js';
import type { Result } from '../runs/run-types.js';
import type { RunsStore } from '../runs/runs-store.js';
import {
  type Icon,
  resultContextValue,
  resultDescription,
  resultIcon,
  resultLabel,
  runContextValue,
  runDescription,
  runIcon,
  runRowLabel,
  runTooltip,
  type SharedTitleParts,
  sharedTitleParts,
} from './describe-run.js';

/** A node of the Runs tree. Nodes are kept per id, so the same node object always stands for the same thing. */
export type RunsNode =
  | { kind: 'run'; id: string; runId: string }
  | { kind: 'result'; id: string; runId: string; resultId: string }
  | { kind: 'screenshot'; id: string; runId: string; resultId: string }
  | { kind: 'more-runs'; id: string }
  | { kind: 'more-results'; id: string; runId: string }
  | { kind: 'message'; id: string; runId: string; text: string; icon: Icon; tooltip?: string }
  | { kind: 'action'; id: string; label: string; icon: Icon; command: string };

/** How a node is drawn: what a `vscode.TreeItem` is made of, without `vscode`. */
export interface NodeView {
  id: string;
  label: string;
  description?: string | undefined;
  tooltip?: string | undefined;
  icon?: Icon | undefined;
  contextValue?: string | undefined;
  collapsible: 'none' | 'collapsed';
  /** The command a click runs, with the node as its argument (none for an action's row). */
  command?: { id: string; title: string } | undefined;
}

/** The icon of the line saying what a run in flight is still at work on. */
const PENDING_ICON: Icon = { id: 'loading~spin' };

/** Commands a node runs when clicked. */
export const NODE_COMMANDS = {
  loadMore: 'webdata.loadMore',
  openResult: 'webdata.result.open',
  showFailure: 'webdata.result.showFailure',
  openScreenshot: 'webdata.result.openScreenshot',
  refreshRun: 'webdata.run.refresh',
} as const;

/**
 * The Runs tree as data: which nodes there are and how each is drawn, read
 * from a {@link RunsStore}. `changes$` turns the store's changes into the
 * node to redraw (`undefined`: the whole tree), so one run's new snapshot
 * redraws that run alone. The VS Code tree provider is a thin adapter over it.
 */
export class RunsTreeModel {
  readonly #store: RunsStore;
  readonly #nodes = new Map<string, RunsNode>();
  /** Per loaded results list (a new list when they change; dropped with it). */
  readonly #shared = new WeakMap<readonly Result[], SharedTitleParts>();

  constructor(store: RunsStore) {
    this.#store = store;
  }

  /** The node to redraw after each store change: a run's node, or `undefined` for the whole tree. */
  get changes$(): Observable<RunsNode | undefined> {
    return this.#store.changes$.pipe(
      mergeMap((change) => {
        if (change.scope === 'list') return [undefined];
        // A run whose node was never handed out has nothing drawn to redraw.
        const node = this.#nodes.get(change.id);
        return node ? [node] : [];
      }),
    );
  }

  /** The top level: runs newest first, then "Load more" when the server has older ones. */
  roots(): RunsNode[] {
    const nodes: RunsNode[] = this.#store.runs.map((run) => this.runNode(run.id));
    if (this.#store.hasMore)
      nodes.push(this.#node('more-runs', () => ({ kind: 'more-runs', id: 'more-runs' })));
    return nodes;
  }

  /**
   * Rows that run a command (Try Again, Change the Address…), shown at the top level in place of
   * runs while none is listed and the view's message says what is wrong.
   */
  actionNodes(actions: readonly { label: string; icon: string; command: string }[]): RunsNode[] {
    return actions.map((action) =>
      this.#node(`action/${action.command}`, () => ({
        kind: 'action',
        id: `action/${action.command}`,
        label: action.label,
        icon: { id: action.icon },
        command: action.command,
      })),
    );
  }

  /**
   * A run's children: its loaded results in the order of the URLs given (pages a crawl found after
   * them), then "Load more", then, in flight, a line with the pages in progress and queued; or a
   * line saying why there are none.
   */
  children(node: RunsNode): RunsNode[] {
    if (node.kind === 'result') {
      const result = this.result(node.runId, node.resultId);
      return result?.has_screenshot ? [this.#screenshotNode(node.runId, node.resultId)] : [];
    }
    if (node.kind !== 'run') return [];
    const run = this.#store.get(node.runId);
    const results = this.#store.resultsOf(node.runId);
    if (!run) return [];
    if (results.load.state === 'error') {
      return [
        this.#message(node.runId, 'error', `Could not load the results: ${errorText(results.load.error)}`, {
          id: 'error',
          color: 'errorForeground',
        }),
      ];
    }
    // In the order of the URLs given (an extraction over a b c lists a b c), not the order they finished.
    const nodes: RunsNode[] = inInputOrder(results.items, run.urls).map((result) =>
      this.#resultNode(node.runId, result.id),
    );
    if (results.nextCursor) {
      nodes.push(
        this.#node(`${node.runId}/more`, () => ({
          kind: 'more-results',
          id: `${node.runId}/more`,
          runId: node.runId,
        })),
      );
    }
    const inFlight = !isTerminalStatus(run.status);
    const pending = inFlight ? pendingText(run) : undefined;
    if (nodes.length === 0 && results.load.state === 'loaded') {
      const text = inFlight ? `No results yet${pending ? `: ${pending}` : ''}` : 'No results';
      return [this.#message(node.runId, 'empty', text, inFlight ? PENDING_ICON : { id: 'info' })];
    }
    // The results list the pages done; the pages still at work are said below them, so that an
    // expanded run in flight shows all of its pages, not only the finished ones.
    if (pending) nodes.push(this.#message(node.runId, 'pending', pending, PENDING_ICON));
    return nodes;
  }

  /**
   * What Enter opens on a row (the `webdata.runs.openRow` keybinding): a run's details; on any other
   * row, what a click runs (a result opens, a failed one says why, Load more…, an action's command),
   * with the node as its argument but for an action's; nothing on a message.
   */
  openCommand(node: RunsNode): { id: string; args: unknown[] } | undefined {
    if (node.kind === 'run') return { id: 'webdata.run.showDetails', args: [node] };
    const command = this.view(node, Date.now()).command;
    if (!command) return undefined;
    return { id: command.id, args: node.kind === 'action' ? [] : [node] };
  }

  /** What the loaded titles of a run's pages share, read again when its results change. */
  #sharedTitleParts(runId: string): SharedTitleParts {
    const items = this.#store.resultsOf(runId).items;
    const known = this.#shared.get(items);
    if (known) return known;
    const parts = sharedTitleParts(items.map((result) => result.title));
    this.#shared.set(items, parts);
    return parts;
  }

  /** How a node is drawn at time `now` (for the relative times). */
  view(node: RunsNode, now: number): NodeView {
    switch (node.kind) {
      case 'run': {
        const run = this.#store.get(node.runId);
        if (!run) return { id: node.id, label: node.runId, collapsible: 'none' };
        return {
          id: node.id,
          label: runRowLabel(run),
          description: runDescription(run, now),
          tooltip: runTooltip(run, now),
          icon: runIcon(run),
          contextValue: runContextValue(run, this.#store.failedPagesOf(run.id)),
          collapsible: 'collapsed',
        };
      }
      case 'result': {
        const result = this.result(node.runId, node.resultId);
        const run = this.#store.get(node.runId);
        if (!result || !run) return { id: node.id, label: node.resultId, collapsible: 'none' };
        const openable = result.status !== 'failed';
        return {
          id: node.id,
          label: resultLabel(result, this.#sharedTitleParts(node.runId)),
          description: resultDescription(result),
          // The whole title (the label may leave out the site's name the run's pages share).
          tooltip:
            [result.title?.trim(), result.url, result.error?.message].filter(Boolean).join('\n') || undefined,
          icon: resultIcon(result, run.type),
          contextValue: resultContextValue(result),
          collapsible: result.has_screenshot ? 'collapsed' : 'none',
          // A failed result has nothing to open: a click says why it failed.
          command: openable
            ? { id: NODE_COMMANDS.openResult, title: 'Open Result' }
            : { id: NODE_COMMANDS.showFailure, title: 'Show Why It Failed' },
        };
      }
      case 'screenshot':
        return {
          id: node.id,
          label: 'Screenshot',
          icon: { id: 'device-camera' },
          contextValue: 'screenshot',
          collapsible: 'none',
          command: { id: NODE_COMMANDS.openScreenshot, title: 'Open Screenshot' },
        };
      case 'more-runs':
      case 'more-results':
        return {
          id: node.id,
          label: 'Load more…',
          icon: { id: 'ellipsis' },
          contextValue: 'loadMore',
          collapsible: 'none',
          command: { id: NODE_COMMANDS.loadMore, title: 'Load More' },
        };
      case 'action':
        return {
          id: node.id,
          label: node.label,
          icon: node.icon,
          contextValue: 'action',
          collapsible: 'none',
          command: { id: node.command, title: node.label },
        };
      case 'message':
        return {
          id: node.id,
          label: node.text,
          tooltip: node.tooltip,
          icon: node.icon,
          contextValue: 'message',
          collapsible: 'none',
        };
    }
  }

  /** The node of a run (made on first use, then the same object). */
  runNode(runId: string): RunsNode {
    return this.#node(runId, () => ({ kind: 'run', id: runId, runId }));
  }

  /** A loaded result of a run. */
  result(runId: string, resultId: string): Result | undefined {
    return this.#store.resultsOf(runId).items.find((result) => result.id === resultId);
  }

  #resultNode(runId: string, resultId: string): RunsNode {
    const id = `${runId}/${resultId}`;
    return this.#node(id, () => ({ kind: 'result', id, runId, resultId }));
  }

  #screenshotNode(runId: string, resultId: string): RunsNode {
    const id = `${runId}/${resultId}/screenshot`;
    return this.#node(id, () => ({ kind: 'screenshot', id, runId, resultId }));
  }

  #message(runId: string, key: string, text: string, icon: Icon): RunsNode {
    // A new object per text: a message is not refreshed in place, it is replaced with its parent's children.
    const node: RunsNode = { kind: 'message', id: `${runId}/${key}`, runId, text, icon };
    this.#nodes.set(node.id, node);
    return node;
  }

  #node(id: string, make: () => RunsNode): RunsNode {
    let node = this.#nodes.get(id);
    if (!node) {
      node = make();
      this.#nodes.set(id, node);
    }
    return node;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
