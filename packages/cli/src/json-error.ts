import { ApiError, RequestValidationError, WebDataError } from '@webdata/core';
import { CliInterrupted } from './interrupted.js';
import { CliUsageError } from './usage-error.js';

/** The `code` of an error the command line itself makes (the others are the client's and the server's). */
export const CLI_ERROR_CODES = {
  invalid_arguments: 'Wrong arguments: an unknown command or option, a bad value, no URLs, no API key.',
  interrupted: 'Ctrl-C ended the command.',
} as const;

/** Whether `--json` is among the global options, read before parsing so a parse error can honour it. */
export function jsonRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/** The code a script branches on: the server's (`not_found`), the client's (`connection_failed`) or the CLI's. */
function errorCode(error: unknown): string {
  if (error instanceof CliUsageError) return 'invalid_arguments';
  if (error instanceof CliInterrupted) return 'interrupted';
  if (error instanceof WebDataError) return error.code;
  return 'internal';
}

/** The refused fields, in the contract's `details` shape (`path`, `code`, `message`). */
function errorDetails(error: unknown): unknown[] | undefined {
  if (error instanceof RequestValidationError && error.issues.length > 0) {
    return error.issues.map((issue) => ({
      path: issue.path.map(String),
      code: issue.code,
      message: issue.message,
    }));
  }
  if (error instanceof ApiError) return error.details;
  return undefined;
}

/**
 * What `webdata --json` writes on stderr for the error that ended a command:
 * one line of JSON in the contract's error shape (`{"error": {"code",
 * "message", "details"?, "request_id"?}}`) plus `exit_code`, so a script
 * branches on `code` and never parses prose. `message` is the prose the
 * command prints without `--json`; `request_id` is the server's, when it
 * answered.
 */
export function jsonErrorLine(error: unknown, message: string, exitCode: number): string {
  const details = errorDetails(error);
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  return `${JSON.stringify({
    error: {
      code: errorCode(error),
      message,
      ...(details === undefined ? {} : { details }),
      ...(requestId === undefined ? {} : { request_id: requestId }),
    },
    exit_code: exitCode,
  })}\n`;
}

/** The JSON line for a usage error commander found (an unknown option, a missing argument, a bad value). */
export function jsonUsageErrorLine(message: string, exitCode: number): string {
  return jsonErrorLine(new CliUsageError(message), message, exitCode);
}
