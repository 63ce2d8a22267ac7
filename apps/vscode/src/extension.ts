import * as vscode from 'vscode';
import { COMMAND_LOADERS } from './commands/command-loaders.js';
import type { Services } from './services.js';
import { SETTINGS } from './settings.js';
import { URL_DOCUMENTS, UrlCodeLensProvider } from './text/url-code-lens.js';
import { DeferredTreeProvider } from './tree/deferred-tree-provider.js';
import type { RunsNode } from './tree/runs-tree-model.js';

/**
 * When the bundle began to load: `scripts/build.mjs` puts this variable at
 * the top of `dist/extension.js` (absent when the sources run unbundled).
 */
declare const __webdataBundleStart: number | undefined;
/** Milliseconds the bundle's first `require("vscode")` took (scripts/build.mjs; absent unbundled). */
declare const __webdataVscodeMs: number | undefined;
/** Milliseconds from the bundle's first line to here, once every module loaded at activation is initialised. */
const LOAD_MS = typeof __webdataBundleStart === 'number' ? performance.now() - __webdataBundleStart : 0;

/** What `activate` returns: the extension's parts, for its integration tests and bench. */
export interface WebDataExtension {
  /**
   * The extension's parts (connection, store, tree, live updates…), made on
   * first need: the Runs view shown or a command run. Calling this makes them now.
   */
  services(): Promise<Services>;
  /**
   * Milliseconds of the extension host's time the activation took, as the
   * extension measures it: loading the bundle ({@link loadMs}) and `activate`.
   * (VS Code's own measure is in "Developer: Show Running Extensions"; the bench prints both.)
   */
  activationMs: number;
  /** Milliseconds loading the bundle took (the modules activation needs initialised), before `activate` ran. */
  loadMs: number;
  /**
   * The part of {@link loadMs} that was the bundle's first `require("vscode")`: the extension
   * host building this extension's API object, which every extension pays.
   */
  vscodeApiMs: number;
  /**
   * Milliseconds loading the client library (`@webdata/core`, bundled apart
   * and loaded on first use) took; `undefined` until it is used.
   */
  clientLoadMs(): number | undefined;
}

/**
 * Registers what VS Code must know of at once (the commands, the Runs view,
 * the CodeLens) with handlers that load the rest on first use: the
 * commands' code, the tree and its live updates, the connection (the API
 * key is read and the client made only then). Nothing is requested, read
 * or loaded beyond that here, so activating costs the extension host little.
 */
export function activate(context: vscode.ExtensionContext): WebDataExtension {
  const started = performance.now();
  let parts: typeof import('./parts.js') | undefined;
  let making: Promise<Services> | undefined;
  const services = (): Promise<Services> => {
    making ??= import('./parts.js').then(async (loaded) => {
      parts = loaded;
      const made = await loaded.makeServices(context, treeView);
      made.log.info(
        `activated in ${activationMs.toFixed(1)} ms (loading the bundle ${LOAD_MS.toFixed(1)} ms); the rest loaded on first use`,
      );
      return made;
    });
    return making;
  };

  const tree = new DeferredTreeProvider(async () => (await services()).provider);
  const treeView: vscode.TreeView<RunsNode> = vscode.window.createTreeView('webdata.runs', {
    treeDataProvider: tree,
    showCollapseAll: true,
  });
  const codeLens = new UrlCodeLensProvider();

  context.subscriptions.push(
    tree,
    treeView,
    codeLens,
    vscode.languages.registerCodeLensProvider(URL_DOCUMENTS, codeLens),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SETTINGS}.codeLens.enabled`)) codeLens.settingChanged();
    }),
    ...COMMAND_LOADERS.map(({ id, load }) =>
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        const [made, command] = await Promise.all([services(), load()]);
        return command.run(made, ...args);
      }),
    ),
  );

  const activationMs = LOAD_MS + performance.now() - started;
  const vscodeApiMs = typeof __webdataVscodeMs === 'number' ? __webdataVscodeMs : 0;
  const clientLoadMs = () => parts?.clientLoadMs();
  return { services, activationMs, loadMs: LOAD_MS, vscodeApiMs, clientLoadMs };
}

export function deactivate(): void {
  // Everything is disposed through the extension context's subscriptions.
}
