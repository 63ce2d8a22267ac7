import { createClient, type WebDataClient } from '@webdata/core';
import { type CliIo, Output } from './io.js';
import { type CliSettings, resolveSettings } from './settings.js';

/** The options every command takes. */
export interface GlobalOptions {
  baseUrl?: string | undefined;
  json?: boolean | undefined;
  /** `true`: draw progress even off a terminal; `false`: never; undefined: on a terminal. */
  progress?: boolean | undefined;
}

/** What a command works with: its output, a client made on first use, and how to show progress. */
export class CommandContext {
  readonly out: Output;
  #client: WebDataClient | undefined;
  /** The request body the command sends, so a refusal can quote the values it names. */
  request: unknown;
  /** The server and the key's origin, once the client is made (error messages name them). */
  settings: CliSettings | undefined;

  constructor(
    readonly io: CliIo,
    readonly options: GlobalOptions,
    /** Aborted on Ctrl-C: a run stream then stops (and cancels its run). */
    readonly signal?: AbortSignal,
  ) {
    this.out = new Output(io, options.json ?? false);
  }

  get client(): WebDataClient {
    if (!this.#client) {
      const settings = resolveSettings(this.io.env, { baseUrl: this.options.baseUrl });
      this.settings = settings;
      this.#client = createClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey });
    }
    return this.#client;
  }

  /** Progress bars: forced by `--progress`, off with `--no-progress`, else on a terminal. */
  get progress(): { enabled: boolean; force: boolean } {
    const tty = Boolean((this.io.stderr as { isTTY?: boolean }).isTTY);
    if (this.options.progress === true) return { enabled: true, force: true };
    if (this.options.progress === false) return { enabled: false, force: false };
    return { enabled: tty, force: false };
  }

  async close(): Promise<void> {
    await this.#client?.close();
  }
}
