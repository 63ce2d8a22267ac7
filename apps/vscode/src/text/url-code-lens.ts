import * as vscode from 'vscode';
import { SETTINGS } from '../settings.js';
import { findUrls } from './find-urls.js';
import { urlLensCommands } from './url-lens-commands.js';

/**
 * Files where URLs get a lens: prose and data formats people keep lists of pages in. Not JSON with
 * Comments (`jsonc`): VS Code opens configuration as that (settings, keybindings, launch, tasks,
 * extensions, devcontainer, tsconfig files), whose URLs are schemas, servers and documentation
 * links rather than pages to extract; a lens over them is clutter (seen in `settings.json`).
 */
export const URL_DOCUMENTS: vscode.DocumentSelector = [
  { language: 'markdown' },
  { language: 'html' },
  { language: 'json' },
  { language: 'plaintext' },
  { language: 'csv' },
  { pattern: '**/*.csv' },
  { pattern: '**/*.tsv' },
];

/**
 * The URI schemes of the extension's own tabs all begin so (`webdata-result`, `webdata-document`,
 * `webdata-search`, `webdata-run`); matched by prefix so that activation loads none of their modules.
 */
export const OWN_SCHEME_PREFIX = 'webdata-';

/** Bigger documents get no lenses: scanning them on every edit is not worth it. */
const MAX_CHARACTERS = 1_000_000;
/** Lenses in one document at most. */
const MAX_LENSES = 500;

/**
 * "Extract from this URL", "Crawl" and "Deep crawl" above each line with URLs
 * ({@link urlLensCommands}). Off with `webdata.codeLens.enabled`.
 */
export class UrlCodeLensProvider implements vscode.CodeLensProvider {
  readonly #changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.#changed.event;

  /** Lenses come and go with the setting. */
  settingChanged(): void {
    this.#changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!vscode.workspace.getConfiguration(SETTINGS).get<boolean>('codeLens.enabled', true)) return [];
    // Not in the extension's own read-only tabs (crawled pages, run details…): a lens over every
    // link of a crawled page is clutter, not a list of pages someone keeps.
    if (document.uri.scheme.startsWith(OWN_SCHEME_PREFIX)) return [];
    const text = document.getText();
    if (text.length > MAX_CHARACTERS) return [];
    const byLine = new Map<number, { range: vscode.Range; urls: string[] }>();
    for (const found of findUrls(text)) {
      const start = document.positionAt(found.start);
      const line = byLine.get(start.line);
      if (line) {
        if (!line.urls.includes(found.url)) line.urls.push(found.url);
      } else {
        if (byLine.size >= MAX_LENSES) break;
        byLine.set(start.line, {
          range: new vscode.Range(start, document.positionAt(found.end)),
          urls: [found.url],
        });
      }
    }
    return [...byLine.values()].flatMap(({ range, urls }) =>
      urlLensCommands(urls).map((command) => new vscode.CodeLens(range, command)),
    );
  }

  dispose(): void {
    this.#changed.dispose();
  }
}
