import type { Observable, Subscription } from 'rxjs';
import * as vscode from 'vscode';
import type { KeyVerdict } from '../connection/connection-state.js';

/**
 * The status bar item saying the service refused the API key in use
 * (`$(key) Web Data: key refused`, on the error background; a click runs Set
 * API Key…). It shows exactly while that is so: a new key set (not tried
 * yet) or taken hides it at once. The refusal is said here, and in the Runs
 * view's message, rather than in an error notification: VS Code keeps an
 * error notification with buttons on screen until it is closed (only info
 * and warning notifications hide after a while), so "the service refused the
 * API key" stayed up after a good key had been set.
 */
export class KeyStatus implements vscode.Disposable {
  readonly #item: vscode.StatusBarItem;
  readonly #subscription: Subscription;
  #visible = false;

  constructor(verdict$: Observable<KeyVerdict>, baseUrl: () => string) {
    this.#item = vscode.window.createStatusBarItem('webdata.keyRefused', vscode.StatusBarAlignment.Left, 11);
    this.#item.name = 'Web Data API key refused';
    this.#item.text = '$(key) Web Data: key refused';
    this.#item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
    this.#item.command = 'webdata.setApiKey';
    this.#subscription = verdict$.subscribe((verdict) => {
      this.#visible = verdict === 'refused';
      if (this.#visible) {
        this.#item.tooltip = `The Web Data service at ${baseUrl()} refused the API key. Click to set another.`;
        this.#item.show();
      } else {
        this.#item.hide();
      }
    });
  }

  /** Whether the item is shown (for tests). */
  get visible(): boolean {
    return this.#visible;
  }

  dispose(): void {
    this.#subscription.unsubscribe();
    this.#item.dispose();
  }
}
