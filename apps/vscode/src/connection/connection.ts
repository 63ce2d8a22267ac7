import { createClient, type WebDataClient } from '@webdata/core';
import { BehaviorSubject, distinctUntilChanged, filter, type Observable } from 'rxjs';
import * as vscode from 'vscode';
import {
  ADDRESS_SETTING,
  configuredAddress,
  FORMER_ADDRESS_SETTING,
  SETTINGS,
  serviceAddress,
} from '../settings.js';
import type { Log } from '../ui/log.js';
import { type ConnectionState, type KeyVerdict, keyVerdictAfter, stateAfter } from './connection-state.js';

/** Where the API key is kept in VS Code's secret storage (never in a settings file). */
export const API_KEY_SECRET = 'webdata.apiKey';
export { SETTINGS };

/** Thrown by {@link Connection.client} when there is no client to use; its message says what to do. */
export class NotConnectedError extends Error {
  override name = 'NotConnectedError';
  constructor(readonly state: ConnectionState) {
    super(
      state === 'noKey'
        ? 'No API key is set for the Web Data service.'
        : 'The Web Data service address (the setting Service Address, webdata.serviceAddress) is not a valid URL.',
    );
  }
}

/**
 * The connection to the Web Data service: one client made from the
 * `webdata.serviceAddress` setting and the API key in secret storage, made anew
 * when either changes (in this window or another), and the connection state
 * that the welcome views and the "connected to …" line show.
 */
export class Connection implements vscode.Disposable {
  readonly #secrets: vscode.SecretStorage;
  readonly #log: Log;
  readonly #client = new BehaviorSubject<WebDataClient | undefined>(undefined);
  readonly #state = new BehaviorSubject<ConnectionState>('connecting');
  readonly #keyVerdict = new BehaviorSubject<KeyVerdict | undefined>(undefined);
  /** The key the current client uses: a different one is untried, whatever was known of the previous. */
  #keyInUse: string | undefined;
  readonly #disposables: vscode.Disposable[] = [];
  #generation = 0;

  /** The current client (`undefined` without a key or a valid address); a new one after every change. */
  readonly client$: Observable<WebDataClient | undefined> = this.#client.asObservable();
  /** The connection state, on every change. */
  readonly state$: Observable<ConnectionState> = this.#state.pipe(distinctUntilChanged());
  /**
   * What is known of the key in use, on every change: taken by the service, refused, none, or not
   * tried yet. The walkthrough's "Set the API key" step ticks on `accepted`, unticks on `refused`.
   */
  readonly keyVerdict$: Observable<KeyVerdict> = this.#keyVerdict.pipe(
    filter((verdict): verdict is KeyVerdict => verdict !== undefined),
    distinctUntilChanged(),
  );

  constructor(secrets: vscode.SecretStorage, log: Log) {
    this.#secrets = secrets;
    this.#log = log;
    this.#disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (
          event.affectsConfiguration(`${SETTINGS}.${ADDRESS_SETTING}`) ||
          event.affectsConfiguration(`${SETTINGS}.${FORMER_ADDRESS_SETTING}`)
        )
          void this.reconnect();
      }),
      secrets.onDidChange((event) => {
        if (event.key === API_KEY_SECRET) void this.reconnect();
      }),
    );
  }

  /** The service's address, from the settings ({@link serviceAddress}: a scheme put before one typed without). */
  get baseUrl(): string {
    return serviceAddress(configuredAddress(vscode.workspace.getConfiguration(SETTINGS)));
  }

  get state(): ConnectionState {
    return this.#state.value;
  }

  /** The client to make requests with; throws {@link NotConnectedError} when there is none. */
  client(): WebDataClient {
    const client = this.#client.value;
    if (!client) throw new NotConnectedError(this.state === 'noKey' ? 'noKey' : 'error');
    return client;
  }

  /** Whether there is a client to make requests with (a key, and a valid address). */
  hasClient(): boolean {
    return this.#client.value !== undefined;
  }

  /** Makes the client from the current settings and key (closing the previous one). */
  async reconnect(): Promise<void> {
    const generation = ++this.#generation;
    const apiKey = await this.#secrets.get(API_KEY_SECRET);
    // A later reconnect started while the key was being read: it wins.
    if (generation !== this.#generation) return;
    const previous = this.#client.value;
    let client: WebDataClient | undefined;
    let state: ConnectionState = 'connecting';
    if (!apiKey) {
      state = 'noKey';
    } else {
      try {
        client = createClient({
          baseUrl: this.baseUrl,
          apiKey,
          logger: this.#log.clientLogger,
          // One retry, two after a 429 (not the library's eight, ~25 s of waiting): a person is
          // waiting, the view says when the service asks to wait, and it retries on its own.
          retry: { maxRetries: 1, rateLimitRetries: 2 },
          // A change restarts the fast schedule at 1 s rather than 250 ms: a tree redrawn
          // once a second is live enough, and it keeps the view's requests few.
          // Batched long polls at least 600 ms apart on average (the library's 200 ms allows five
          // a second): runs in flight whose counts keep changing answer every long poll at once,
          // so this spacing is what holds the visible view to 2 requests a second (50 busy deep
          // crawls: 3.25 a second before, 1.70 with it); each answer carries every change since.
          poll: { initialMs: 1_000, minIntervalMs: 600 },
        });
        this.#log.info(`using the Web Data service at ${client.baseUrl}`);
      } catch (error) {
        this.#log.error(`the service address "${this.baseUrl}" cannot be used`, error);
        state = 'error';
      }
    }
    if (apiKey !== this.#keyInUse) this.#keyVerdict.next('untried');
    this.#keyInUse = apiKey;
    this.#setState(state);
    this.#client.next(client);
    if (previous) void previous.close();
  }

  /** A request succeeded. */
  reportSuccess(): void {
    if (this.#client.value) this.#setState('connected');
  }

  /** A request failed: the state says why, when the failure is about the connection. */
  reportFailure(error: unknown): ConnectionState {
    const state = stateAfter(error);
    if (this.#client.value) this.#setState(state);
    return state;
  }

  #setState(state: ConnectionState): void {
    this.#keyVerdict.next(keyVerdictAfter(this.#keyVerdict.value ?? 'untried', state));
    this.#state.next(state);
  }

  async setApiKey(key: string): Promise<void> {
    await this.#secrets.store(API_KEY_SECRET, key);
    await this.reconnect();
  }

  async clearApiKey(): Promise<void> {
    await this.#secrets.delete(API_KEY_SECRET);
    await this.reconnect();
  }

  dispose(): void {
    for (const disposable of this.#disposables) disposable.dispose();
    void this.#client.value?.close();
    this.#client.complete();
    this.#state.complete();
    this.#keyVerdict.complete();
  }
}
