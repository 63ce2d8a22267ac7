import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  RequestValidationError,
  RunFailedError,
  RunNotFinishedError,
  RunTimeoutError,
  TimeoutError,
  UnprocessableUrlError,
} from '@webdata/core';
import { CliInterrupted } from './interrupted.js';
import { CliUsageError } from './usage-error.js';

/**
 * What the exit code of `webdata` says happened (documented in the README).
 * A script can tell a run that failed from one that finished with some pages
 * failed, from a wrong key, from a server it could not reach.
 */
export const EXIT = {
  ok: 0,
  /** Something unexpected (a bug, an answer the client could not read). */
  error: 1,
  /** Wrong arguments, a request the contract refuses, no API key. */
  usage: 2,
  /** The run ended `failed`. */
  runFailed: 3,
  /** The run ended `incomplete`: some pages failed (the others are printed). */
  runIncomplete: 4,
  /** The run was `cancelled`. */
  runCancelled: 5,
  /** `--deadline` passed before the run finished (it goes on unless cancelled). */
  deadline: 6,
  /** The API key was refused (401). */
  unauthorized: 7,
  /** No such run or result for this key (404). */
  notFound: 8,
  /** Not allowed in the run's state (409), or its results are not there yet. */
  conflict: 9,
  /** The server could not be reached, timed out, or failed (5xx). */
  unavailable: 10,
  /** Ctrl-C (128 + SIGINT's 2, as a shell reports it). */
  interrupted: 130,
} as const;

/** The exit code for a run that reached `status`. */
export function exitCodeOfRun(status: string): number {
  if (status === 'completed') return EXIT.ok;
  if (status === 'incomplete') return EXIT.runIncomplete;
  if (status === 'cancelled') return EXIT.runCancelled;
  if (status === 'failed') return EXIT.runFailed;
  return EXIT.error;
}

/** The exit code for an error that ended a command. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CliUsageError) return EXIT.usage;
  if (error instanceof CliInterrupted) return EXIT.interrupted;
  if (error instanceof RequestValidationError || error instanceof BadRequestError) return EXIT.usage;
  if (error instanceof UnprocessableUrlError) return EXIT.usage;
  if (error instanceof RunFailedError) return EXIT.runFailed;
  if (error instanceof RunTimeoutError) return EXIT.deadline;
  if (error instanceof AuthenticationError) return EXIT.unauthorized;
  if (error instanceof NotFoundError) return EXIT.notFound;
  if (error instanceof ConflictError || error instanceof RunNotFinishedError) return EXIT.conflict;
  if (
    error instanceof ConnectionError ||
    error instanceof TimeoutError ||
    error instanceof InternalServerError
  ) {
    return EXIT.unavailable;
  }
  return EXIT.error;
}
