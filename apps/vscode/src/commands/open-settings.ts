import * as vscode from 'vscode';
import type { Command } from '../services.js';

/** Web Data: Open Settings, at this extension's settings. */
export const openSettings: Command = {
  id: 'webdata.openSettings',
  run() {
    return vscode.commands.executeCommand('workbench.action.openSettings', '@ext:webdata.webdata webdata');
  },
};
