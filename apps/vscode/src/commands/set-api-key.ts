import * as vscode from 'vscode';
import type { Connection } from '../connection/connection.js';
import type { Command } from '../services.js';
import type { Log } from '../ui/log.js';
import { showError } from '../ui/show-error.js';

/** How trying a key went: taken, refused (401), or another failure (no answer, 429, an error). */
type Trial = { outcome: 'taken' } | { outcome: 'refused' } | { outcome: 'failed'; error: unknown };

/**
 * Web Data: Set API Key…. Keeps the key in VS Code's secret storage (never
 * in a settings file), reconnects, and tries the key at once with one small
 * request: whoever set it learns whether the service takes it without opening
 * the Runs view (nothing else is asked while the view is hidden), and the
 * connection's state (the view, the walkthrough's first step) follows.
 *
 * A key the service refuses is said in the input box, which stays open for
 * another (Escape leaves the refused key kept), and then by the status bar
 * item and the view's message, which go as soon as a key is taken: not by an
 * error notification, which VS Code keeps on screen until it is closed, so
 * that it said "refused" after a good key was set. Tests and scripts may pass
 * the key; a refused one is then said by the status bar and the view alone.
 */
export const setApiKey: Command = {
  id: 'webdata.setApiKey',
  async run({ connection, log }, key?: unknown) {
    if (typeof key === 'string') {
      if (key.trim() === '') return;
      const trial = await keepAndTry(connection, log, key.trim());
      if (trial?.outcome === 'failed') void explainFailure(connection, log, trial.error);
      return;
    }
    const trial = await askAndTry(connection, log);
    if (trial?.outcome === 'failed') void explainFailure(connection, log, trial.error);
  },
};

/** Keeps the key, reconnects and tries it; `undefined` when there is no client to try it with (an invalid address). */
async function keepAndTry(connection: Connection, log: Log, key: string): Promise<Trial | undefined> {
  await connection.setApiKey(key);
  log.info(`API key set for ${connection.baseUrl}`);
  if (!connection.hasClient()) return undefined;
  try {
    await connection.client().runs.list({ limit: 1 });
    connection.reportSuccess();
    vscode.window.setStatusBarMessage(`Web Data: connected to ${connection.baseUrl}`, 5_000);
    return { outcome: 'taken' };
  } catch (error) {
    const state = connection.reportFailure(error);
    if (state === 'unauthorized') {
      log.warn(
        `${connection.baseUrl} refused the API key: ${error instanceof Error ? error.message : String(error)}`,
      );
      return { outcome: 'refused' };
    }
    return { outcome: 'failed', error };
  }
}

function explainFailure(connection: Connection, log: Log, error: unknown): Promise<void> {
  return showError(log, `The API key is kept; trying it with ${connection.baseUrl} failed`, error);
}

/**
 * The input box: each key entered is kept and tried while the box stays open
 * (busy); a refused one is said in the box, for another to be pasted. Resolves
 * once a key is taken, trying one failed otherwise, or the box is closed.
 */
function askAndTry(connection: Connection, log: Log): Promise<Trial | undefined> {
  const box = vscode.window.createInputBox();
  box.title = 'Web Data: API key';
  box.prompt = `The API key of the service at ${connection.baseUrl} (pnpm start prints one). It is kept in VS Code's secret storage.`;
  box.password = true;
  box.ignoreFocusOut = true;
  return new Promise<Trial | undefined>((resolve) => {
    let trying = false;
    box.onDidChangeValue((value) => {
      box.validationMessage = value.trim() === '' && value !== '' ? 'the key cannot be empty' : undefined;
    });
    box.onDidAccept(async () => {
      const value = box.value.trim();
      if (trying) return;
      if (value === '') {
        box.validationMessage = 'the key cannot be empty';
        return;
      }
      trying = true;
      box.busy = true;
      box.enabled = false;
      box.validationMessage = undefined;
      const trial = await keepAndTry(connection, log, value);
      trying = false;
      box.busy = false;
      box.enabled = true;
      if (trial?.outcome === 'refused') {
        box.validationMessage = {
          message: `${connection.baseUrl} refused this key (401). Paste another (Escape keeps this one).`,
          severity: vscode.InputBoxValidationSeverity.Error,
        };
        return;
      }
      resolve(trial);
      box.hide();
    });
    box.onDidHide(() => {
      resolve(undefined);
      box.dispose();
    });
    box.show();
  });
}
