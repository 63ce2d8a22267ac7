import * as vscode from 'vscode';
import type { Connection } from '../connection/connection.js';
import type { Log } from '../ui/log.js';
import { renderContent } from './render-content.js';
import { fromResultUri, RESULT_SCHEME, type ResultRef, toResultUri } from './result-uri.js';

/** Documents kept in memory: reopening a recent result costs no request. */
const CACHE_SIZE = 32;

/**
 * Serves result documents (`webdata-result:` URIs) read-only: the content
 * comes from the service through the client, once, then from a small cache.
 * Virtual documents open in ordinary editor tabs: the same result reopens
 * its tab, and a large page stays as responsive as any large file.
 */
export class ResultContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #connection: Connection;
  readonly #log: Log;
  readonly #cache = new Map<string, string>();
  readonly #registration: vscode.Disposable;

  constructor(connection: Connection, log: Log) {
    this.#connection = connection;
    this.#log = log;
    this.#registration = vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this);
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const key = uri.toString();
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const ref = fromResultUri(uri);
    if (!ref) throw new Error(`${key} is not a Web Data result`);
    const abort = new AbortController();
    const listener = token.onCancellationRequested(() => abort.abort());
    try {
      const { content } = await this.#connection
        .client()
        .runs.content(ref.runId, ref.resultId, { format: ref.format, signal: abort.signal });
      const text = renderContent(content);
      this.#remember(key, text);
      this.#log.info(`opened ${ref.format} of ${ref.resultId} (run ${ref.runId}, ${text.length} characters)`);
      return text;
    } finally {
      listener.dispose();
    }
  }

  #remember(key: string, text: string): void {
    this.#cache.delete(key);
    this.#cache.set(key, text);
    while (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string);
  }

  dispose(): void {
    this.#registration.dispose();
  }
}

/**
 * Opens a result in an editor tab (its tab when it is open already).
 *
 * @example
 * ```ts
 * await openResultDocument({ runId, resultId, format: 'json', title: 'Brass Desk Lamp' });
 * ```
 */
export async function openResultDocument(
  ref: ResultRef,
  options: { preview?: boolean } = {},
): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.from(toResultUri(ref)));
  return vscode.window.showTextDocument(document, { preview: options.preview ?? true });
}
