import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { coalesceRedraws } from './coalesce-redraws.js';

function scheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('coalesceRedraws', () => {
  it('sends a lone request at once', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const requests = cold('a 999ms b|', { a: 'run_1', b: 'run_2' });
      expectObservable(requests.pipe(coalesceRedraws<string>(250))).toBe('a 999ms b|', {
        a: ['run_1'],
        b: ['run_2'],
      });
    });
  });

  it('spaces a stream of requests 250 ms apart, each node once, so VS Code draws every one', () => {
    scheduler().run(({ cold, expectObservable }) => {
      // A run in flight whose snapshot changes every 100 ms, another run once: without spacing, VS Code's
      // 200 ms debounce, started again at each event, drew nothing until the stream paused.
      const requests = cold('a 99ms a 99ms b 99ms a 99ms a 499ms |', { a: 'run_1', b: 'run_2' });
      expectObservable(requests.pipe(coalesceRedraws<string>(250))).toBe('a 249ms b 249ms c 399ms |', {
        a: ['run_1'],
        b: ['run_1', 'run_2'],
        c: ['run_1'],
      });
    });
  });

  it('gathers a request of the whole tree over the nodes asked for with it', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const requests = cold('a 9ms w 9ms b', { a: 'run_1', w: undefined, b: 'run_2' });
      expectObservable(requests.pipe(coalesceRedraws<string>(250))).toBe('a 249ms w', {
        a: ['run_1'],
        w: undefined,
      });
    });
  });
});
