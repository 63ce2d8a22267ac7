import type { RunLenient } from '@webdata/contract';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { distinctSnapshot } from './distinctSnapshot.js';
import { takeUntilTerminal } from './takeUntilTerminal.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const run = (status: string, succeeded: number, extra: Record<string, unknown> = {}): RunLenient => ({
  id: 'run_1',
  status,
  type: 'crawl',
  urls: [],
  created_at: '2026-01-01T00:00:00.000Z',
  stats: { total: 3, succeeded },
  ...extra,
});

describe('distinctSnapshot', () => {
  it('drops snapshots equal to the last one passed on, ignoring fields outside the key', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const values = {
        a: run('queued', 0),
        b: run('queued', 0, { server_note: 'noise' }),
        c: run('running', 1),
        d: run('running', 1),
        e: run('running', 2),
        f: run('completed', 3),
      };
      expectObservable(cold('-a-b-c-d-e-f|', values).pipe(distinctSnapshot())).toBe('-a---c---e-f|', values);
    });
  });

  it('treats the seed as already seen, per subscription', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const values = { a: run('queued', 0), c: run('running', 1) };
      const source = cold('-a-c|', values).pipe(distinctSnapshot(values.a));
      expectObservable(source).toBe('---c|', values);
      expectObservable(source).toBe('---c|', values);
    });
  });
});

describe('takeUntilTerminal', () => {
  it('passes snapshots through the first terminal one and completes; unknown statuses are in flight', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = {
        a: run('queued', 0),
        b: run('warming-up', 0),
        c: run('incomplete', 2),
        d: run('x', 0),
      };
      const source = cold('-a-b-c-d|', values);
      expectObservable(source.pipe(takeUntilTerminal())).toBe('-a-b-(c|)', values);
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });
});
