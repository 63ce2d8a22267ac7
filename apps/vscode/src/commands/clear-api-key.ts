import * as vscode from 'vscode';
import type { Command } from '../services.js';

/** Web Data: Forget API Key. Removes it from secret storage. */
export const clearApiKey: Command = {
  id: 'webdata.clearApiKey',
  async run({ connection, log }) {
    await connection.clearApiKey();
    log.info('API key removed');
    void vscode.window.showInformationMessage('Web Data: the API key was removed from secret storage.');
  },
};
