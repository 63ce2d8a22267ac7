import type { RunsNode } from './runs-tree-model.js';

/**
 * The run a command acts on: the tree node it was invoked on, or a run id
 * (from a test, a script or a keybinding). `undefined` for anything else.
 */
export function runIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg !== '') return arg;
  if (isNode(arg) && 'runId' in arg) return arg.runId;
  return undefined;
}

/** A result a command acts on: its node (result or screenshot), or `{ runId, resultId }`. */
export function resultOf(arg: unknown): { runId: string; resultId: string } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { runId, resultId } = arg as { runId?: unknown; resultId?: unknown };
  return typeof runId === 'string' && typeof resultId === 'string' ? { runId, resultId } : undefined;
}

/**
 * The node a command of the Runs view acts on: the one it was given (a menu, a click, a test); from a
 * keybinding (package.json's `keybindings` pass `{ $treeViewId, $focusedTreeItem }`, which VS Code's
 * extension host turns into the row that has the focus), that row; given nothing else, the row
 * selected, when one is. VS Code gives a keybinding's `when` no `viewItem` (menus only), so the
 * command itself checks what kind of row it got. `undefined` when there is none.
 *
 * Why not a documented way: there is none for the row with the focus. `TreeView.selection` (the
 * documented one) is not it: the arrow keys move the focus, not the selection (microsoft/vscode
 * #170248, open), so Enter or Delete on it would act on the row clicked last; a keybinding's command
 * gets no row (#72442); `TreeView.activeItem` is still a proposed API (`treeViewActiveItem`, checked
 * in VS Code 1.139's extension host), which an extension from the Marketplace may not use.
 * `$focusedTreeItem` is what VS Code's own view title actions pass (`getActionsContext` of its tree
 * views), which the extension host turns into the focused element (its tree views' argument
 * processor, as in 1.139; it tracks the focus since microsoft/vscode#184268); were that to stop, the
 * command gets the argument as it is, and falls back to the selection here.
 */
export function givenOrSelected(
  arg: unknown,
  treeView: { readonly selection: readonly RunsNode[] },
): unknown {
  if (typeof arg === 'string' || isNode(arg)) return arg;
  if (arg !== undefined && arg !== null && !isFocusedItemArgument(arg)) return arg;
  return treeView.selection.length === 1 ? treeView.selection[0] : undefined;
}

/** The keybinding's argument as VS Code passes it when it does not turn it into the focused row. */
function isFocusedItemArgument(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && '$treeViewId' in arg;
}

/** Whether `arg` is a row of the Runs view. */
export function isNode(arg: unknown): arg is RunsNode {
  return typeof arg === 'object' && arg !== null && 'kind' in arg && 'id' in arg;
}
