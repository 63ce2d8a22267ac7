import { ServiceError } from '../errors.js';

/** Seconds a client is asked to wait when the database or blob store is away. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The error a store throws when what it persists to is away for a moment
 * (database restarting, connection lost, blob store unreachable): the HTTP
 * layer answers it with 503 `unavailable` and `Retry-After`, never 500.
 */
export function storeUnavailable(cause: unknown): ServiceError {
  return new ServiceError('unavailable', 'storage is unavailable for a moment; try again', {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
    cause,
  });
}
