import * as vscode from 'vscode';
import { countOf } from '../text/count-of.js';
import { typedUrls, uniqueUrls, urlNearest } from '../text/find-urls.js';

/** URLs one request may carry (the service's limit). */
export const MAX_URLS = 100;

/**
 * The distinct URLs of the active editor's selection, or of its whole
 * document when nothing is selected (Markdown, HTML, JSON, CSV, plain text).
 */
export function urlsInActiveEditor(): string[] {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return [];
  const selected = editor.selections.filter((selection) => !selection.isEmpty);
  const text =
    selected.length > 0
      ? selected.map((selection) => editor.document.getText(selection)).join('\n')
      : editor.document.getText();
  return uniqueUrls(text);
}

/**
 * The URL a command on one page starts from: the first of the selection, else the one the cursor
 * is in, else the first on the cursor's line, else the file's first ({@link urlNearest}).
 */
export function urlAtCursor(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const selected = editor.selections.find((selection) => !selection.isEmpty);
  if (selected) return uniqueUrls(editor.document.getText(selected))[0];
  const { document, selection } = editor;
  return urlNearest(document.getText(), document.offsetAt(selection.active));
}

/**
 * Lets the user confirm URLs in a multi-select quick pick (all picked at
 * first, at most {@link MAX_URLS}); with none found, asks for them instead.
 * `undefined` when the user gave up.
 */
export async function confirmUrls(found: string[], title: string): Promise<string[] | undefined> {
  if (found.length === 0) {
    const typed = await vscode.window.showInputBox({
      title,
      prompt: vscode.window.activeTextEditor
        ? 'No URL in the selection or the file. Type or paste URLs (separated by spaces or commas).'
        : 'Type or paste URLs (separated by spaces or commas), or open a file with URLs first.',
      placeHolder: 'https://example.org/a example.org/b',
      ignoreFocusOut: true,
      validateInput: (value) =>
        value.trim() === '' || typedUrls(value).length > 0
          ? undefined
          : 'No web address in this: type one as https://example.org/page (or example.org/page)',
    });
    if (typed === undefined) return undefined;
    found = typedUrls(typed);
    if (found.length === 0) return undefined;
  }
  const items = found.map((url, index) => ({ label: url, picked: index < MAX_URLS }));
  const picked = await vscode.window.showQuickPick(items, {
    title: `${title}: ${countOf(found.length, 'URL')} found`,
    placeHolder:
      found.length > MAX_URLS
        ? `Pick at most ${MAX_URLS} (one run takes ${MAX_URLS}); the first ${MAX_URLS} are picked`
        : 'Untick the URLs to leave out, then press Enter',
    canPickMany: true,
    ignoreFocusOut: true,
    matchOnDescription: true,
  });
  if (!picked || picked.length === 0) return undefined;
  if (picked.length > MAX_URLS) {
    void vscode.window.showWarningMessage(
      `One run takes at most ${MAX_URLS} URLs: the first ${MAX_URLS} were used.`,
    );
  }
  return picked.slice(0, MAX_URLS).map((item) => item.label);
}
