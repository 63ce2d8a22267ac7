import * as vscode from 'vscode';
import type { RunsNode } from './runs-tree-model.js';
import type { RunsTreeProvider } from './runs-tree-provider.js';

/**
 * The Runs view's data provider as activation registers it: it stands for
 * the real {@link RunsTreeProvider}, which (with the store, the live updates
 * and the connection) is made the first time VS Code asks for the view's
 * rows, that is when the view is first shown.
 */
export class DeferredTreeProvider implements vscode.TreeDataProvider<RunsNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<RunsNode[] | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  readonly #load: () => Promise<RunsTreeProvider>;
  #provider: RunsTreeProvider | undefined;
  #forwarding: vscode.Disposable | undefined;

  constructor(load: () => Promise<RunsTreeProvider>) {
    this.#load = load;
  }

  async #real(): Promise<RunsTreeProvider> {
    if (!this.#provider) {
      const provider = await this.#load();
      if (!this.#provider) {
        this.#provider = provider;
        this.#forwarding = provider.onDidChangeTreeData((nodes) => this.#changed.fire(nodes));
      }
    }
    return this.#provider;
  }

  async getChildren(node?: RunsNode): Promise<RunsNode[]> {
    return (await this.#real()).getChildren(node);
  }

  // Nodes come only from getChildren, so the real provider is there by the time these are asked.
  async getTreeItem(node: RunsNode): Promise<vscode.TreeItem> {
    return (await this.#real()).getTreeItem(node);
  }

  async getParent(node: RunsNode): Promise<RunsNode | undefined> {
    return (await this.#real()).getParent(node);
  }

  dispose(): void {
    this.#forwarding?.dispose();
    this.#changed.dispose();
  }
}
