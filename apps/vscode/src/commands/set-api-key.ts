import * as vscode from 'vscode';
import type { Command } from '../services.js';

/**
 * Web Data: Set API Key…. Keeps the key in VS Code's secret storage (never
 * in a settings file) and reconnects. Tests and scripts may pass the key.
 */
export const setApiKey: Command = {
  id: 'webdata.setApiKey',
  async run({ connection, log }, key?: unknown) {
    const value =
      typeof key === 'string'
        ? key
        : await vscode.window.showInputBox({
            title: 'Web Data: API key',
            prompt: `The API key of the service at ${connection.baseUrl} (pnpm start prints one). It is kept in VS Code's secret storage.`,
            password: true,
            ignoreFocusOut: true,
            validateInput: (input) => (input.trim() === '' ? 'the key cannot be empty' : undefined),
          });
    if (value === undefined || value.trim() === '') return;
    await connection.setApiKey(value.trim());
    log.info(`API key set for ${connection.baseUrl}`);
  },
};
