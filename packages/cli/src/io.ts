import type { Readable, Writable } from 'node:stream';

/** Where a command writes, and what it reads from the environment (tests pass their own). */
export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** Where `-` in place of the URLs reads them from (the process's stdin). */
  stdin?: Readable | undefined;
}

/**
 * The URLs of a command: as given, or, for a lone `-`, read from stdin one a
 * line (blank lines and `#` comments skipped), so another command's output
 * can feed it: `… | jq -r '.data[].url' | webdata extract - --query …`.
 */
export async function urlsFrom(args: string[], io: CliIo): Promise<string[]> {
  if (args.length !== 1 || args[0] !== '-') return args;
  if (!io.stdin) return args;
  let text = '';
  for await (const chunk of io.stdin) text += String(chunk);
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
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
