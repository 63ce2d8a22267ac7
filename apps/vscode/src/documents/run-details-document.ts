import type { Subscription } from 'rxjs';
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection.js';
import { runDetails, runDetailsTitle } from '../runs/run-details.js';
import type { Run } from '../runs/run-types.js';
import type { RunsStore } from '../runs/runs-store.js';
import { safeTitle } from './result-uri.js';

/** The URI scheme of run details tabs. */
export const RUN_DETAILS_SCHEME = 'webdata-run';

/**
 * Read-only tabs of runs' details (Show Run Details): Markdown made by
 * {@link runDetails}, one URI per run (`webdata-run:/<runId>/<what it is>.md`,
 * the tab named by {@link runDetailsTitle}), so showing a run's details again
 * brings its tab back. The run comes from the
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
      const uri = openUriOf(change.id);
      if (uri) this.#changed.fire(uri);
    });
  }

  /** Opens the run's details in a tab (its tab when it is open already, brought up to date). */
  async open(runId: string): Promise<vscode.TextEditor> {
    let uri = openUriOf(runId);
    if (uri) this.#changed.fire(uri);
    // The tab's name is what the run is: the run comes from the view's list, else from the service.
    uri ??= runDetailsUri(this.#store.get(runId) ?? (await this.#connection.client().runs.get(runId)));
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

/** Run ids are URL-safe (the API says so): they go in the path as they are; the last segment names the tab. */
function runDetailsUri(run: Pick<Run, 'id' | 'type' | 'urls' | 'params'>): vscode.Uri {
  return vscode.Uri.from({
    scheme: RUN_DETAILS_SCHEME,
    path: `/${run.id}/${safeTitle(runDetailsTitle(run)) || run.id}.md`,
  });
}

/** The URI of the run's details tab when one is open. */
function openUriOf(runId: string): vscode.Uri | undefined {
  return vscode.workspace.textDocuments.find(
    (doc) => doc.uri.scheme === RUN_DETAILS_SCHEME && doc.uri.path.startsWith(`/${runId}/`),
  )?.uri;
}
