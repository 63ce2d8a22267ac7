import { ERROR_STATUS, type ErrorCode, type ErrorDetail, type PageErrorCode } from '@webdata/contract';

/**
 * The server's one error hierarchy. An error that reaches the HTTP layer is
 * answered with the contract's error body: a `ServiceError` with its own code
 * and status, anything else as `internal` (details hidden, logged).
 */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  /** Seconds a client should wait before trying again (429, 503). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ServiceError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A run, result or screenshot that does not exist for this owner. */
export function notFound(what: string): ServiceError {
  return new ServiceError('not_found', `${what} not found`);
}

/** An action the run's current state does not allow. */
export function conflict(message: string): ServiceError {
  return new ServiceError('conflict', message);
}

/**
 * Why one page could not be fetched or processed: becomes the `error` of a
 * failed result (`{ code, message }`), never an HTTP error of the API itself.
 * The codes are the contract's `PAGE_ERROR_CODES`, where each is described.
 */
export class PageError extends Error {
  readonly code: PageErrorCode;
  constructor(code: PageErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'PageError';
    this.code = code;
  }
}
