import * as vscode from 'vscode';
import type { Connection } from '../connection/connection.js';
import type { Log } from '../ui/log.js';
import { DOCUMENT_SCHEME, type DocumentRef, fromDocumentUri, toDocumentUri } from './document-uri.js';
import { renderContent } from './render-content.js';
import { fromResultUri, RESULT_SCHEME, type ResultRef, toResultUri } from './result-uri.js';

/** Documents kept in memory: reopening a recent result costs no request. */
const CACHE_SIZE = 32;

/**
 * Serves the extension's read-only tabs: results of runs (`webdata-result:`
 * URIs) and indexed documents, the whole page a search hit names
 * (`webdata-document:`). The content comes from the service through the
 * client, once, then from a small cache. Virtual documents open in ordinary
 * editor tabs: the same result or document reopens its tab, and a large page
 * stays as responsive as any large file.
 */
export class ResultContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #connection: Connection;
  readonly #log: Log;
  readonly #cache = new Map<string, string>();
  readonly #registrations: vscode.Disposable[];

  constructor(connection: Connection, log: Log) {
    this.#connection = connection;
    this.#log = log;
    this.#registrations = [
      vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this),
      vscode.workspace.registerTextDocumentContentProvider(DOCUMENT_SCHEME, this),
    ];
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const key = uri.toString();
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const abort = new AbortController();
    const listener = token.onCancellationRequested(() => abort.abort());
    try {
      const text =
        uri.scheme === DOCUMENT_SCHEME
          ? await this.#documentText(uri, abort.signal)
          : await this.#resultText(uri, abort.signal);
      this.#remember(key, text);
      return text;
    } finally {
      listener.dispose();
    }
  }

  async #resultText(uri: vscode.Uri, signal: AbortSignal): Promise<string> {
    const ref = fromResultUri(uri);
    if (!ref) throw new Error(`${uri.toString()} is not a Web Data result`);
    const { content } = await this.#connection
      .client()
      .runs.content(ref.runId, ref.resultId, { format: ref.format, signal });
    const text = renderContent(content);
    this.#log.info(`opened ${ref.format} of ${ref.resultId} (run ${ref.runId}, ${text.length} characters)`);
    return text;
  }

  async #documentText(uri: vscode.Uri, signal: AbortSignal): Promise<string> {
    const ref = fromDocumentUri(uri);
    if (!ref) throw new Error(`${uri.toString()} is not a Web Data document`);
    const { content, format } = await this.#connection
      .client()
      .collections.document(ref.collection, ref.documentId, { format: ref.format, signal });
    this.#log.info(
      `opened ${format ?? 'the'} content of document ${ref.documentId} (collection ${ref.collection}, ${content.length} characters)`,
    );
    return content;
  }

  #remember(key: string, text: string): void {
    this.#cache.delete(key);
    this.#cache.set(key, text);
    while (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string);
  }

  dispose(): void {
    for (const registration of this.#registrations) registration.dispose();
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

/**
 * Opens an indexed document (the whole page a search hit names) in an editor
 * tab (its tab when it is open already).
 *
 * @example
 * ```ts
 * await openIndexedDocument({ collection: 'docs', documentId: hit.document_id, title: hit.title });
 * ```
 */
export async function openIndexedDocument(
  ref: DocumentRef,
  options: { preview?: boolean } = {},
): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.from(toDocumentUri(ref)));
  return vscode.window.showTextDocument(document, { preview: options.preview ?? true });
}
