import { IN_FLIGHT_STATUSES, type RunErrorInfo, type RunStats, type RunStatus } from '@webdata/contract';

/**
 * The run state machine, as pure decisions that every store persists the
 * same way (SQLite and PostgreSQL hold no rule of their own: their SQL takes
 * its states from here):
 *
 * ```
 * queued ──claim──► running ──all items done──► completed | incomplete | failed
 *    └────────┴──cancel──► cancelled        incomplete | failed | cancelled ──retry──► queued
 * ```
 * Items: `queued ──claim──► running ──outcome──► succeeded | failed`; a lease
 * given back or run out puts a running item back in the queue; a cancel ends
 * queued and running items as `cancelled`; a retry queues failed and cancelled
 * ones again. Every change of a run, its stats or its results bumps its version.
 */

/** Item states (internal; results only show succeeded and failed). */
export type ItemStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** A move of items: from any of these states to that one. */
export interface ItemMove {
  from: readonly ItemStatus[];
  to: ItemStatus;
}

/** The state a new run starts in. */
export const NEW_RUN_STATUS: RunStatus = 'queued';

/** Runs whose items are still being worked on (the ones a claim picks from). */
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = IN_FLIGHT_STATUSES;

/** The state a new item (a URL of a new run, or one a crawl found) starts in. */
export const NEW_ITEM_STATUS: ItemStatus = 'queued';

/** Every move of items outside an item's own outcome. */
export const ITEM_MOVES = {
  /** A worker leases waiting items. */
  claim: { from: ['queued'], to: 'running' },
  /** A lease given back (shutdown) or run out (a dead worker): the item waits for another worker. */
  requeue: { from: ['running'], to: 'queued' },
  /** The run is cancelled: what had not finished ends cancelled. */
  cancel: { from: ['queued', 'running'], to: 'cancelled' },
  /** The run is retried: what did not succeed runs again. */
  retry: { from: ['failed', 'cancelled'], to: 'queued' },
} as const satisfies Record<string, ItemMove>;

/** The state of a leased item: only a lease holder in this state may renew it or write its outcome. */
export const LEASED_ITEM_STATUS: ItemStatus = ITEM_MOVES.claim.to;

/** A waiting item: one found to be an alias of a page already fetched may be dropped from the run. */
export const WAITING_ITEM_STATUS: ItemStatus = ITEM_MOVES.claim.from[0];

/** States a run can be cancelled from: its items may still be queued or running. */
export const CANCELLABLE: readonly RunStatus[] = ACTIVE_RUN_STATUSES;

/** States a run can be retried from: some of its items did not succeed. */
export const RETRYABLE: readonly RunStatus[] = ['incomplete', 'failed', 'cancelled'];

/** Item states that a retry puts back in the queue. */
export const RETRIED_ITEMS = ITEM_MOVES.retry.from;

export function canCancel(status: RunStatus): boolean {
  return CANCELLABLE.includes(status);
}

export function canRetry(status: RunStatus): boolean {
  return RETRYABLE.includes(status);
}

/**
 * A change of a run decided here, which the store writes as it is, in the
 * same transaction as the items' move, with a new version.
 */
export interface RunDecision {
  status: RunStatus;
  /** The run's error: set (null clears it); absent keeps it. */
  error?: RunErrorInfo | null;
  /** `now`: the run finished now; `clear`: it is no longer finished; absent keeps the finish time. */
  finished?: 'now' | 'clear';
  /** The run has started, now unless it had already. */
  started?: true;
  /** Items that move with the run. */
  items?: ItemMove;
}

/** A run whose items are being worked on: a claim moves `queued` to `running`; other states stay. */
export function statusOnClaim(status: RunStatus): RunStatus {
  return status === 'queued' ? 'running' : status;
}

/** What claiming items of a run does to it: it is running, and started. */
export function claimDecision(status: RunStatus): RunDecision {
  return { status: statusOnClaim(status), started: true };
}

/** What cancelling does: null when the run's state does not allow it. */
export function cancelDecision(status: RunStatus): RunDecision | null {
  if (!canCancel(status)) return null;
  return { status: 'cancelled', finished: 'now', items: ITEM_MOVES.cancel };
}

/**
 * What retrying does: the items that did not succeed are queued again and
 * the run with them; when there are none, the run ends as its items did.
 * Null when the run's state does not allow a retry.
 */
export function retryDecision(status: RunStatus, stats: RunStats): RunDecision | null {
  if (!canRetry(status)) return null;
  const again = RETRIED_ITEMS.reduce((sum, state) => sum + stats[state], 0);
  if (again === 0) return settle(NEW_RUN_STATUS, stats);
  return { status: NEW_RUN_STATUS, error: null, finished: 'clear', items: ITEM_MOVES.retry };
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
): (RunDecision & { error: RunErrorInfo | null }) | null {
  if (!ACTIVE_RUN_STATUSES.includes(status) || stats.queued + stats.running > 0) return null;
  const ended = { finished: 'now', started: true } as const;
  if (stats.failed + stats.cancelled === 0) return { status: 'completed', error: null, ...ended };
  if (stats.succeeded === 0) {
    return {
      status: 'failed',
      error: {
        code: 'all_items_failed',
        message: "no page could be processed; each result's error says why",
      },
      ...ended,
    };
  }
  return { status: 'incomplete', error: null, ...ended };
}
