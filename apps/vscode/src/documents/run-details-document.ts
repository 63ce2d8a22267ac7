import type { Subscription } from 'rxjs';
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection.js';
import { runDetails } from '../runs/run-details.js';
import type { RunsStore } from '../runs/runs-store.js';

/** The URI scheme of run details tabs. */
export const RUN_DETAILS_SCHEME = 'webdata-run';

/**
 * Read-only tabs of runs' details (Show Run Details): Markdown made by
 * {@link runDetails}, one URI per run (`webdata-run:/<runId>/<runId>.md`), so
 * showing a run's details again brings its tab back. The run comes from the
 * store when the view lists it (no request), else from the service; an open
 * tab follows the run's changes as the view's live updates bring them.
 */
export class RunDetailsDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.#changed.event;
  readonly #connection: Connection;
  readonly #store: RunsStore;
  readonly #registration: vscode.Disposable;
  readonly #subscription: Subscription;

  constructor(connection: Connection, store: RunsStore) {
    this.#connection = connection;
    this.#store = store;
    this.#registration = vscode.workspace.registerTextDocumentContentProvider(RUN_DETAILS_SCHEME, this);
    this.#subscription = store.changes$.subscribe((change) => {
      if (change.scope !== 'run') return;
      const uri = runDetailsUri(change.id);
      const open = vscode.workspace.textDocuments.some((doc) => doc.uri.toString() === uri.toString());
      if (open) this.#changed.fire(uri);
    });
  }

  /** Opens the run's details in a tab (its tab when it is open already, brought up to date). */
  async open(runId: string): Promise<vscode.TextEditor> {
    const uri = runDetailsUri(runId);
    this.#changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { preview: true });
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const runId = uri.path.split('/')[1] ?? '';
    const known = this.#store.get(runId);
    if (known) return runDetails(known);
    const abort = new AbortController();
    const listener = token.onCancellationRequested(() => abort.abort());
    try {
      return runDetails(await this.#connection.client().runs.get(runId, { signal: abort.signal }));
    } finally {
      listener.dispose();
    }
  }

  dispose(): void {
    this.#subscription.unsubscribe();
    this.#registration.dispose();
    this.#changed.dispose();
  }
}

/** Run ids are URL-safe (the API says so): they go in the path as they are. */
function runDetailsUri(runId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RUN_DETAILS_SCHEME, path: `/${runId}/${runId}.md` });
}
