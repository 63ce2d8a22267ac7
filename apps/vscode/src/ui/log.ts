import type { Logger } from '@webdata/core';
import { type Observable, Subject } from 'rxjs';
import * as vscode from 'vscode';

/** An error logged, and whether a message on screen says it too. */
export interface LoggedFailure {
  error: unknown;
  shown: boolean;
}

/**
 * The "Web Data" output channel. Every request failure, run started and
 * action taken is written here; error messages offer "Show log" to open it.
 */
export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  readonly #failures = new Subject<LoggedFailure>();
  /** Every error logged with {@link error} (a failed request, a failed action), as it is logged. */
  readonly failures$: Observable<LoggedFailure> = this.#failures.asObservable();

  constructor() {
    this.channel = vscode.window.createOutputChannel('Web Data', { log: true });
  }

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  /** Logs a failure; `shown`: a message on screen says it too (see {@link showError}). */
  error(message: string, error?: unknown, options: { shown?: boolean } = {}): void {
    this.channel.error(error === undefined ? message : `${message}: ${describeError(error)}`);
    if (error !== undefined) this.#failures.next({ error, shown: options.shown ?? false });
  }

  /** The client's logger: its debug and warning lines go to this channel (the client never logs the key). */
  get clientLogger(): Logger {
    return {
      debug: (message, fields) => this.channel.debug(withFields(message, fields)),
      warn: (message, fields) => this.channel.warn(withFields(message, fields)),
    };
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.#failures.complete();
    this.channel.dispose();
  }
}

/**
 * An error's message with its request id when the service gave one (once: the client's
 * `ApiError` messages already end with it).
 *
 * @example
 * ```ts
 * describeError(Object.assign(new Error('boom'), { requestId: 'req_1' })); // 'boom (request req_1)'
 * ```
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const requestId = (error as { requestId?: unknown }).requestId;
  if (typeof requestId !== 'string' || error.message.includes(requestId)) return error.message;
  return `${error.message} (request ${requestId})`;
}

function withFields(message: string, fields: Record<string, unknown> | undefined): string {
  return fields && Object.keys(fields).length > 0 ? `${message} ${JSON.stringify(fields)}` : message;
}
