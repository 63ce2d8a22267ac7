import * as vscode from 'vscode';
import type { Command } from '../services.js';
import { showError } from '../ui/show-error.js';

/**
 * Web Data: Set API Key…. Keeps the key in VS Code's secret storage (never
 * in a settings file), reconnects, and tries the key at once with one small
 * request: whoever set it learns whether the service takes it without opening
 * the Runs view (nothing else is asked while the view is hidden), and the
 * connection's state (the view, the walkthrough's first step) follows.
 * Tests and scripts may pass the key.
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
    if (!connection.hasClient()) return;
    try {
      await connection.client().runs.list({ limit: 1 });
      connection.reportSuccess();
      vscode.window.setStatusBarMessage(`Web Data: connected to ${connection.baseUrl}`, 5_000);
    } catch (error) {
      connection.reportFailure(error);
      void showError(log, `The API key is kept; trying it with ${connection.baseUrl} failed`, error);
    }
  },
};
