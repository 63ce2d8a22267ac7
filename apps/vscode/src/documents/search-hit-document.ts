import type { SearchHit } from '@webdata/core';
import * as vscode from 'vscode';
import { safeTitle } from './result-uri.js';

/** The URI scheme of search hit documents. */
export const SEARCH_HIT_SCHEME = 'webdata-search';

/**
 * A search hit as a read-only Markdown document: title, address, collection,
 * when it was indexed and the matching passage. The service has no endpoint
 * for an indexed document's full text, so the passage is what can be shown;
 * the document links to the page. Hits are kept for the window's lifetime.
 */
export class SearchHitDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #hits = new Map<string, SearchHit>();
  readonly #registration = vscode.workspace.registerTextDocumentContentProvider(SEARCH_HIT_SCHEME, this);

  /** Opens a hit in a tab (the same tab for the same hit). */
  async open(hit: SearchHit, query: string): Promise<vscode.TextEditor> {
    const key = `${hit.collection ?? 'default'}/${hit.document_id ?? encodeURIComponent(hit.url)}`;
    this.#hits.set(key, { ...hit, query } as SearchHit);
    const name = `${safeTitle(hit.title ?? '') || 'Search hit'}.md`;
    const uri = vscode.Uri.from({ scheme: SEARCH_HIT_SCHEME, path: `/${key}/${name}` });
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const key = uri.path.split('/').slice(1, -1).join('/');
    const hit = this.#hits.get(key) as (SearchHit & { query?: string }) | undefined;
    if (!hit)
      return 'This search hit is no longer in memory: search again with "Web Data: Search Collection…".\n';
    return renderHit(hit, hit.query ?? '');
  }

  dispose(): void {
    this.#registration.dispose();
  }
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
  return decodeEntities(
    snippet
      .replace(/<mark>/g, '**')
      .replace(/<\/mark>/g, '**')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

/** The service's snippet as plain text (for a quick pick line). */
export function snippetToText(snippet: string): string {
  return decodeEntities(snippet.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
