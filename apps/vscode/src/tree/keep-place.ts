import type * as vscode from 'vscode';
import { TREE_REDRAW_SPACING_MS } from './coalesce-redraws.js';
import type { RunsNode } from './runs-tree-model.js';

/**
 * Puts the focus (and the selection, as a click would) on `node` in the Runs
 * view, when there is one and the view is showing: after an action removed the
 * row that had the focus (Load more…, a deleted run), so the keyboard keeps its
 * place. Without it VS Code lost the focus with the row, and the next arrow key
 * went to the top of the view.
 */
export async function keepPlace(
  treeView: vscode.TreeView<RunsNode>,
  node: RunsNode | undefined,
): Promise<void> {
  if (!node || !treeView.visible) return;
  // The redraw that draws a new row may wait that long (coalesceRedraws); VS Code reveals a row only once
  // it has been told of it, and then waits for the redraw to end.
  await new Promise((resolve) => setTimeout(resolve, TREE_REDRAW_SPACING_MS));
  await Promise.resolve(treeView.reveal(node, { select: true, focus: true })).catch(() => undefined);
}
