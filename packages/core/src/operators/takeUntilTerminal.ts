import { isTerminalStatus, type RunLenient } from '@webdata/contract';
import { type MonoTypeOperatorFunction, takeWhile } from 'rxjs';

/**
 * Passes run snapshots on up to and including the first terminal one
 * (`completed`, `incomplete`, `failed`, `cancelled`), then completes. An
 * unknown status from a foreign server counts as still in flight.
 *
 * @example
 * ```ts
 * import { takeUntilTerminal } from '@webdata/core';
 *
 * const final = await lastValueFrom(snapshots$.pipe(takeUntilTerminal()));
 * ```
 */
export function takeUntilTerminal<T extends Pick<RunLenient, 'status'>>(): MonoTypeOperatorFunction<T> {
  return takeWhile((run) => !isTerminalStatus(run.status), true);
}
