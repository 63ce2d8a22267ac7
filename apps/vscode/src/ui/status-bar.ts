import { merge, type Subscription } from 'rxjs';
import * as vscode from 'vscode';
import type { RunsStore } from '../runs/runs-store.js';
import type { StartedRuns } from '../runs/started-runs.js';
import { countOf } from '../text/count-of.js';

/**
 * The status bar item: how many runs are in flight, as far as this window
 * knows (the Runs view's runs, as of its last update, and the runs followed
 * with a progress notification). Hidden when there are none; a click shows the view.
 */
export class RunsStatusBar implements vscode.Disposable {
  readonly #item: vscode.StatusBarItem;
  readonly #subscription: Subscription;

  constructor(store: RunsStore, started: StartedRuns) {
    this.#item = vscode.window.createStatusBarItem(
      'webdata.runsInFlight',
      vscode.StatusBarAlignment.Left,
      10,
    );
    this.#item.name = 'Web Data runs in flight';
    this.#item.command = 'webdata.runs.focus';
    const update = () => {
      const count = new Set([...store.inFlightIds(), ...started.inFlightIds()]).size;
      if (count === 0) {
        this.#item.hide();
        return;
      }
      this.#item.text = `$(loading~spin) ${countOf(count, 'run')}`;
      this.#item.tooltip = `Web Data: ${countOf(count, 'run')} in flight. Click to show the Runs view.`;
      this.#item.show();
    };
    this.#subscription = merge(store.changes$, started.changes$).subscribe(update);
    update();
  }

  /** The text shown, for tests. */
  get text(): string {
    return this.#item.text;
  }

  dispose(): void {
    this.#subscription.unsubscribe();
    this.#item.dispose();
  }
}
