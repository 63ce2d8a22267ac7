import {
  AuthenticationError,
  ConnectionError,
  RequestValidationError,
  RunNotFinishedError,
  RunTimeoutError,
  TimeoutError,
} from '@webdata/core';
import type { CliSettings } from './settings.js';

/**
 * What `webdata` prints on stderr for the error that ended a command: the
 * error's own message, plus, for the errors a person at a terminal meets
 * first, what to do next in terms of this command line (the client's
 * messages speak of its TypeScript options).
 */
export function errorMessage(error: unknown, settings: CliSettings | undefined, request?: unknown): string {
  if (error instanceof RequestValidationError && error.issues.length > 0) {
    const what = /^invalid (\S+) request/.exec(error.message)?.[0] ?? 'invalid request';
    return [`${what}:`, ...error.issues.map((issue) => `  ${issueLine(issue, request)}`)].join('\n');
  }
  if (error instanceof RunNotFinishedError) {
    const { id, status } = error.run;
    return `run ${id} is ${status}: its results are not all there yet (follow it to the end with: webdata runs watch ${id}; or print what is done so far with --unfinished)`;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RunTimeoutError && error.runId !== undefined) {
    const id = error.runId;
    return `${message}; it goes on (follow it with: webdata runs watch ${id}; stop it with: webdata runs cancel ${id})`;
  }
  if ((error instanceof ConnectionError || error instanceof TimeoutError) && settings) {
    return `${message}\nno webdata server answered at ${settings.baseUrl}: start one (pnpm start), or name it with --base-url or WEBDATA_BASE_URL`;
  }
  if (error instanceof AuthenticationError && settings) {
    return `${message}\n(the key came from ${settings.apiKeyFrom}; the server at ${settings.baseUrl} does not accept it: \`webdata-server keys create\` on the server makes a new one)`;
  }
  return message;
}

/** The value at `path` in the request, if any. */
function valueAt(request: unknown, path: readonly PropertyKey[]): unknown {
  let value = request;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * One refused field: where, the value given (a URL as typed), and why, with a
 * scheme suggested for a URL typed without one (`example.org`), which other
 * crawling tools accept.
 */
function issueLine(issue: { path: readonly PropertyKey[]; message: string }, request: unknown): string {
  const where = issue.path.map(String).join('.') || '(the request)';
  const value = issue.path.length > 0 ? valueAt(request, issue.path) : undefined;
  const given =
    typeof value === 'string'
      ? ` ${JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value)}`
      : '';
  const hint =
    typeof value === 'string' && /URL/.test(issue.message) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)
      ? ` (with its scheme: https://${value})`
      : '';
  return `${where}${given}: ${issue.message}${hint}`;
}
