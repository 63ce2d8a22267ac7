import type { ErrorInfo, RunStats, RunStatus } from '@webdata/contract';

/**
 * The run state machine, as pure decisions that every store persists the
 * same way (SQLite and PostgreSQL hold no rule of their own):
 *
 * ```
 * queued ──claim──► running ──all items done──► completed | incomplete | failed
 *    └────────┴──cancel──► cancelled        incomplete | failed | cancelled ──retry──► queued
 * ```
 * Every change of a run, its stats or its results bumps its version.
 */

/** States a run can be cancelled from: its items may still be queued or running. */
export const CANCELLABLE: readonly RunStatus[] = ['queued', 'running'];

/** States a run can be retried from: some of its items did not succeed. */
export const RETRYABLE: readonly RunStatus[] = ['incomplete', 'failed', 'cancelled'];

/** Item states that a retry puts back in the queue. */
export const RETRIED_ITEMS = ['failed', 'cancelled'] as const;

export function canCancel(status: RunStatus): boolean {
  return CANCELLABLE.includes(status);
}

export function canRetry(status: RunStatus): boolean {
  return RETRYABLE.includes(status);
}

/** A run whose items are being worked on: a claim moves `queued` to `running`; other states stay. */
export function statusOnClaim(status: RunStatus): RunStatus {
  return status === 'queued' ? 'running' : status;
}

/**
 * Where a run goes once no item is queued or running: `completed` when all
 * succeeded, `failed` (with an error) when none did, else `incomplete`. Null
 * while work is left or when the run is not active (a cancelled run stays
 * cancelled).
 */
export function settle(
  status: RunStatus,
  stats: RunStats,
): { status: RunStatus; error: ErrorInfo | null } | null {
  if (!canCancel(status) || stats.queued + stats.running > 0) return null;
  if (stats.failed + stats.cancelled === 0) return { status: 'completed', error: null };
  if (stats.succeeded === 0) {
    return {
      status: 'failed',
      error: {
        code: 'all_items_failed',
        message: "no page could be processed; each result's error says why",
      },
    };
  }
  return { status: 'incomplete', error: null };
}
