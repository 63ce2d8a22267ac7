import * as vscode from 'vscode';
import type { Command } from '../services.js';
import { givenOrSelected, isNode } from '../tree/node-argument.js';

/**
 * Enter in the Runs view (its keybinding passes the row with the focus): opens that row, as GitHub
 * Actions' run browser does: a run's details tab ({@link RunsTreeModel.openCommand}); on any other
 * row what a click runs (a result, Load more…). VS Code's own Enter only folded a run.
 */
export const openRow: Command = {
  id: 'webdata.runs.openRow',
  async run({ model, treeView }, given?: unknown) {
    const node = givenOrSelected(given, treeView);
    if (!isNode(node)) return undefined;
    const command = model.openCommand(node);
    if (!command) return undefined;
    return vscode.commands.executeCommand(command.id, ...command.args);
  },
};
