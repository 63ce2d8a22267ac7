import {
  AuthenticationError,
  ConnectionError,
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
export function errorMessage(error: unknown, settings: CliSettings | undefined): string {
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
