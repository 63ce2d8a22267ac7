import { type RunStats, RunStatus } from '@webdata/contract';
import { describe, expect, it } from 'vitest';
import { cancelDecision, claimDecision, ITEM_MOVES, retryDecision, settle } from './run-state.js';

const stats = (counts: Partial<RunStats>): RunStats => {
  const all = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0, ...counts };
  return { total: all.queued + all.running + all.succeeded + all.failed + all.cancelled, ...all };
};

describe('the run state machine', () => {
  it('cancels only a queued or running run, ending its unfinished items', () => {
    const allowed = RunStatus.options.filter((status) => cancelDecision(status) !== null);
    expect(allowed).toEqual(['queued', 'running']);
    expect(cancelDecision('running')).toEqual({
      status: 'cancelled',
      finished: 'now',
      items: { from: ['queued', 'running'], to: 'cancelled' },
    });
  });

  it('retries only a run some of whose items did not succeed, queueing those again', () => {
    const some = stats({ succeeded: 2, failed: 1, cancelled: 1 });
    const allowed = RunStatus.options.filter((status) => retryDecision(status, some) !== null);
    expect(allowed).toEqual(['incomplete', 'failed', 'cancelled']);
    expect(retryDecision('incomplete', some)).toEqual({
      status: 'queued',
      error: null,
      finished: 'clear',
      items: ITEM_MOVES.retry,
    });
    expect(ITEM_MOVES.retry).toEqual({ from: ['failed', 'cancelled'], to: 'queued' });
  });

  it('ends a retried run at once when every item had succeeded (a cancel after the last page)', () => {
    expect(retryDecision('cancelled', stats({ succeeded: 3 }))).toEqual({
      status: 'completed',
      error: null,
      finished: 'now',
      started: true,
    });
  });

  it('starts a queued run on its first claim and leaves other states alone', () => {
    expect(claimDecision('queued')).toEqual({ status: 'running', started: true });
    expect(claimDecision('running').status).toBe('running');
    expect(claimDecision('cancelled').status).toBe('cancelled');
  });

  it('settles a run from its items once none is queued or running', () => {
    expect(settle('running', stats({ succeeded: 2, running: 1 }))).toBeNull();
    expect(settle('running', stats({ succeeded: 2, queued: 1 }))).toBeNull();
    expect(settle('running', stats({ succeeded: 2 }))?.status).toBe('completed');
    expect(settle('running', stats({ succeeded: 1, failed: 1 }))?.status).toBe('incomplete');
    expect(settle('running', stats({ failed: 2 }))).toMatchObject({
      status: 'failed',
      error: { code: 'all_items_failed' },
      finished: 'now',
    });
    // A cancelled (or already settled) run stays as it is.
    expect(settle('cancelled', stats({ succeeded: 1, cancelled: 1 }))).toBeNull();
    expect(settle('completed', stats({ succeeded: 1 }))).toBeNull();
  });
});
