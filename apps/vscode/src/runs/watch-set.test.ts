import { describe, expect, it } from 'vitest';
import { WatchSet } from './watch-set.js';

const listed =
  (...ids: string[]) =>
  (id: string) =>
    ids.includes(id);

describe('WatchSet', () => {
  it('starts a watch for the runs in flight and keeps it while the set only shrinks', () => {
    const watch = new WatchSet();
    expect(watch.plan(['a', 'b', 'c'], listed('a', 'b', 'c'))).toEqual({
      kind: 'restart',
      ids: ['a', 'b', 'c'],
    });
    // b and c ended: the batched stream drops them itself, no new request stream.
    expect(watch.plan(['a'], listed('a', 'b', 'c'))).toEqual({ kind: 'keep' });
    expect(watch.plan(['a'], listed('a', 'b', 'c'))).toEqual({ kind: 'keep' });
    expect([...watch.current]).toEqual(['a']);
  });

  it('restarts with the new set when a run comes into flight (a new run, a retry)', () => {
    const watch = new WatchSet();
    watch.plan(['a', 'b'], listed('a', 'b'));
    expect(watch.plan(['a', 'b', 'd'], listed('a', 'b', 'd'))).toEqual({
      kind: 'restart',
      ids: ['a', 'b', 'd'],
    });
    // b ended (the stream dropped it), then was retried: it is in flight again and must be watched again.
    expect(watch.plan(['a', 'd'], listed('a', 'b', 'd'))).toEqual({ kind: 'keep' });
    expect(watch.plan(['a', 'd', 'b'], listed('a', 'b', 'd'))).toEqual({
      kind: 'restart',
      ids: ['a', 'd', 'b'],
    });
  });

  it('restarts without a run that left the list, which the server would answer with 404', () => {
    const watch = new WatchSet();
    watch.plan(['a', 'b'], listed('a', 'b'));
    expect(watch.plan(['a'], listed('a'))).toEqual({ kind: 'restart', ids: ['a'] });
  });

  it('stops when nothing is in flight, once', () => {
    const watch = new WatchSet();
    expect(watch.plan([], listed())).toEqual({ kind: 'keep' });
    watch.plan(['a'], listed('a'));
    expect(watch.plan([], listed('a'))).toEqual({ kind: 'stop' });
    expect(watch.plan([], listed('a'))).toEqual({ kind: 'keep' });
  });

  it('restarts after a reset (the stream failed)', () => {
    const watch = new WatchSet();
    watch.plan(['a'], listed('a'));
    watch.reset();
    expect(watch.plan(['a'], listed('a'))).toEqual({ kind: 'restart', ids: ['a'] });
  });
});
