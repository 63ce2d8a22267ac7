import type { Observable, Subscription } from 'rxjs';
import * as vscode from 'vscode';
import type { ConnectionState } from '../connection/connection-state.js';
import type { Outage, OutageWatch } from '../connection/outage-watch.js';

/** As the failed actions' messages and the Runs view's row name it. */
const CHANGE_ADDRESS = 'Change the Address…';
const SHOW_LOG = 'Show Log';

/** The states in which the service answered (with or without taking the key): leaving one for `unreachable` is going down. */
const ANSWERED: ReadonlySet<ConnectionState> = new Set(['connected', 'unauthorized', 'rateLimited', 'error']);

/**
 * The outage as a state, not a notification: the status bar item
 * `$(debug-disconnect) Web Data: service unreachable` (warning background;
 * its tooltip names the address and when the next check is; a click checks
 * at once) shows exactly while the service does not answer, and goes by
 * itself when the {@link OutageWatch}'s checks find it back. Going down is
 * said once, in a warning, which VS Code hides after a while: an error
 * notification with buttons stays on screen until it is closed (an extension
 * cannot close it), so "the service does not answer" stayed up after the
 * service was back. Not said when the first contact found no service (the
 * Runs view and this item say so), nor when an action's own message already
 * said it ({@link quietly}).
 */
export class OutageStatus implements vscode.Disposable {
  readonly #item: vscode.StatusBarItem;
  readonly #subscriptions: Subscription[];
  readonly #baseUrl: () => string;
  readonly #watch: OutageWatch;
  #last: ConnectionState | undefined;
  #quiet = false;

  constructor(state$: Observable<ConnectionState>, watch: OutageWatch, baseUrl: () => string) {
    this.#watch = watch;
    this.#baseUrl = baseUrl;
    this.#item = vscode.window.createStatusBarItem('webdata.unreachable', vscode.StatusBarAlignment.Left, 12);
    this.#item.name = 'Web Data service unreachable';
    this.#item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.#item.command = 'webdata.checkService';
    this.#subscriptions = [
      state$.subscribe((state) => {
        const before = this.#last;
        this.#last = state;
        if (state === 'unreachable' && before !== undefined && ANSWERED.has(before) && !this.#quiet) {
          void this.#warn();
        }
      }),
      watch.outage$.subscribe((outage) => this.#draw(outage)),
    ];
  }

  /** Whether the item is shown (for tests). */
  get visible(): boolean {
    return this.#watch.outage !== undefined;
  }

  /** Runs `report` (a failure reported to the connection) without the going-down warning: its action says it. */
  quietly<T>(report: () => T): T {
    this.#quiet = true;
    try {
      return report();
    } finally {
      this.#quiet = false;
    }
  }

  async #warn(): Promise<void> {
    const chosen = await vscode.window.showWarningMessage(
      `The Web Data service at ${this.#baseUrl()} stopped answering. The status bar says so until it is back; the Runs view then refreshes by itself.`,
      CHANGE_ADDRESS,
      SHOW_LOG,
    );
    if (chosen === CHANGE_ADDRESS) await vscode.commands.executeCommand('webdata.openSettings');
    if (chosen === SHOW_LOG) await vscode.commands.executeCommand('webdata.showLog');
  }

  #draw(outage: Outage | undefined): void {
    if (!outage) {
      this.#item.hide();
      return;
    }
    this.#item.text = `${outage.checking ? '$(sync~spin)' : '$(debug-disconnect)'} Web Data: service unreachable`;
    this.#item.tooltip = this.#tooltip(outage);
    this.#item.show();
  }

  #tooltip(outage: Outage): vscode.MarkdownString {
    const next =
      outage.nextCheckAt === undefined
        ? 'Checking now…'
        : `Checks again at ${new Date(outage.nextCheckAt).toLocaleTimeString()} (every 30 s at most).`;
    const tooltip = new vscode.MarkdownString(
      `No Web Data service answers at ${this.#baseUrl()} (the setting Service Address) since ${new Date(outage.since).toLocaleTimeString()}. ${next}\n\n` +
        '[Check Now](command:webdata.checkService) · [Change the Address…](command:webdata.openSettings) · [Show Log](command:webdata.showLog)',
    );
    tooltip.isTrusted = {
      enabledCommands: ['webdata.checkService', 'webdata.openSettings', 'webdata.showLog'],
    };
    return tooltip;
  }

  dispose(): void {
    for (const subscription of this.#subscriptions) subscription.unsubscribe();
    this.#item.dispose();
  }
}
