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

function isNode(arg: unknown): arg is RunsNode {
  return typeof arg === 'object' && arg !== null && 'kind' in arg && 'id' in arg;
}
