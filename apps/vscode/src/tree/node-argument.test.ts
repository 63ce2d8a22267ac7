import { describe, expect, it } from 'vitest';
import { givenOrSelected, runIdOf } from './node-argument.js';
import type { RunsNode } from './runs-tree-model.js';

describe('givenOrSelected', () => {
  const run = { kind: 'run', id: 'run_1', runId: 'run_1' } as RunsNode;
  const other = { kind: 'run', id: 'run_2', runId: 'run_2' } as RunsNode;
  const focusedItem = { $treeViewId: 'webdata.runs', $focusedTreeItem: true };

  it('is the node given (a menu, a click, the focused row of a keybinding), whatever is selected', () => {
    expect(givenOrSelected(other, { selection: [run] })).toBe(other);
    expect(givenOrSelected('run_3', { selection: [run] })).toBe('run_3');
  });

  it('is the row selected when the keybinding got no row (none focused, or not turned into one)', () => {
    expect(runIdOf(givenOrSelected(undefined, { selection: [run] }))).toBe('run_1');
    expect(runIdOf(givenOrSelected(null, { selection: [run] }))).toBe('run_1');
    expect(runIdOf(givenOrSelected(focusedItem, { selection: [run] }))).toBe('run_1');
  });

  it('is nothing with nothing selected, or more than one row', () => {
    expect(givenOrSelected(focusedItem, { selection: [] })).toBeUndefined();
    expect(givenOrSelected(undefined, { selection: [run, other] })).toBeUndefined();
  });
});
