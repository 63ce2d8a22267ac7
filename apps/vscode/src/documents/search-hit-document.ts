import { type SearchHit, snippetParts, snippetText } from '@webdata/core';
import * as vscode from 'vscode';
import { passageOffsets } from '../text/find-passage.js';
import { openIndexedDocument } from './result-content-provider.js';
import { safeTitle } from './result-uri.js';

/** The URI scheme of search hit passages (hits whose whole document cannot be read). */
export const SEARCH_HIT_SCHEME = 'webdata-search';

/**
 * Opens search hits in tabs. A hit with a `document_id` opens its whole
 * document (`webdata-document:`, served by the {@link ResultContentProvider}:
 * the same document reopens its tab), its passage selected and in view. A hit without one, or whose document
 * cannot be read (a server without the document endpoint, a page deleted
 * since the search), opens as a read-only Markdown passage instead: title,
 * address, collection, when it was indexed and the matching passage, and why
 * the whole page is not shown. Passages are kept for the window's lifetime.
 */
export class SearchHitDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #hits = new Map<string, SearchHit & { query?: string; reason?: string }>();
  readonly #registration = vscode.workspace.registerTextDocumentContentProvider(SEARCH_HIT_SCHEME, this);

  /**
   * Opens a hit in a tab: its whole document when it can be read, else its
   * passage. `collection` is the one searched, for hits that do not name theirs.
   */
  async open(hit: SearchHit, query: string, collection?: string): Promise<vscode.TextEditor> {
    const inCollection = hit.collection ?? collection;
    const title = hit.title?.trim() || hit.url;
    if (hit.document_id && inCollection) {
      try {
        const editor = await openIndexedDocument({
          collection: inCollection,
          documentId: hit.document_id,
          title,
        });
        if (hit.snippet) revealPassage(editor, hit.snippet);
        return editor;
      } catch (error) {
        return this.#openPassage(hit, query, error instanceof Error ? error.message : String(error));
      }
    }
    return this.#openPassage(hit, query, "the service did not name this hit's document");
  }

  async #openPassage(hit: SearchHit, query: string, reason: string): Promise<vscode.TextEditor> {
    const key = `${hit.collection ?? 'default'}/${hit.document_id ?? encodeURIComponent(hit.url)}`;
    this.#hits.set(key, { ...hit, query, reason });
    const name = `${safeTitle(hit.title ?? '') || 'Search hit'}.md`;
    const uri = vscode.Uri.from({ scheme: SEARCH_HIT_SCHEME, path: `/${key}/${name}` });
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const key = uri.path.split('/').slice(1, -1).join('/');
    const hit = this.#hits.get(key);
    if (!hit)
      return 'This search hit is no longer in memory: search again with "Web Data: Search Collection…".\n';
    const passage = renderHit(hit, hit.query ?? '');
    return hit.reason ? `${passage}\n*Only the matching passage is shown: ${hit.reason}.*\n` : passage;
  }

  dispose(): void {
    this.#registration.dispose();
  }
}

/**
 * Selects the hit's passage in its page and scrolls to it, as a search result
 * opens at its line: the page may be long, and the passage is why it was
 * chosen. Left at the top when the passage is not found.
 */
function revealPassage(editor: vscode.TextEditor, snippet: string): void {
  const found = passageOffsets(editor.document.getText(), snippet);
  if (!found) return;
  const range = new vscode.Range(
    editor.document.positionAt(found.start),
    editor.document.positionAt(found.end),
  );
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/**
 * A hit as Markdown, the matched words in bold.
 *
 * @example
 * ```ts
 * renderHit({ url: 'https://a.example/', title: 'A', snippet: 'the <mark>lamp</mark>' }, 'lamp');
 * ```
 */
export function renderHit(hit: SearchHit, query: string): string {
  const lines = [`# ${hit.title?.trim() || hit.url}`, '', `<${hit.url}>`, ''];
  const facts = [
    hit.collection ? `collection \`${hit.collection}\`` : undefined,
    hit.indexed_at ? `indexed ${hit.indexed_at}` : undefined,
    hit.score !== undefined ? `score ${hit.score}` : undefined,
    query ? `search: “${query}”` : undefined,
  ].filter(Boolean);
  if (facts.length > 0) lines.push(`*${facts.join(' · ')}*`, '');
  if (hit.snippet) lines.push(`> ${snippetToMarkdown(hit.snippet)}`, '');
  return `${lines.join('\n')}\n`;
}

/** The service's snippet (HTML with `<mark>`) as Markdown with the marks in bold. */
export function snippetToMarkdown(snippet: string): string {
  return oneLine(
    snippetParts(snippet)
      .map((part) => (part.match ? `**${part.text}**` : part.text))
      .join(''),
  );
}

/** The service's snippet as plain text (for a quick pick line). */
export function snippetToText(snippet: string): string {
  return oneLine(snippetText(snippet));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
