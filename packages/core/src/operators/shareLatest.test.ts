import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { shareLatest } from './shareLatest.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('shareLatest', () => {
  it('makes one source subscription for several subscribers and replays the latest to a late one', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-d|');
      const shared = source.pipe(shareLatest());
      expectObservable(shared).toBe('-a-b-c-d|');
      expectObservable(shared, '----^').toBe('----bc-d|');
      expectSubscriptions(source.subscriptions).toBe('^-------!');
    });
  });

  it('stops the source when the last subscriber leaves and starts afresh for the next', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-d|');
      const shared = source.pipe(shareLatest());
      expectObservable(shared, '^--!').toBe('-a-');
      expectObservable(shared, '-^-!').toBe('-a-');
      expectObservable(shared, '------^').toBe('-------a-b-c-d|');
      expectSubscriptions(source.subscriptions).toBe(['^--!', '------^-------!']);
    });
  });
});
