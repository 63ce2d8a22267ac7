import type { Writable } from 'node:stream';

/** Where a command writes, and what it reads from the environment (tests pass their own). */
export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

/**
 * How a command prints: results on stdout (as JSON with `--json`, so a script
 * can parse them), everything else (progress, summaries) on stderr.
 */
export class Output {
  constructor(
    readonly io: CliIo,
    readonly json: boolean,
  ) {}

  /** A line of human output on stdout (nothing with `--json`). */
  line(text: string): void {
    if (!this.json) this.io.stdout.write(`${text}\n`);
  }

  /** The command's one JSON document on stdout (with `--json`). */
  document(value: unknown): void {
    if (this.json) this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A note for the person at the terminal, on stderr. */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }
}
