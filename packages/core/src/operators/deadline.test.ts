import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { RunTimeoutError } from '../errors.js';
import { deadline } from './deadline.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('deadline', () => {
  it('errors with the given error when the source has not completed in time, and unsubscribes it', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b--c-d|');
      const error = new RunTimeoutError('run_1', 5);
      expectObservable(source.pipe(deadline(5, () => error))).toBe('-a-b-#', undefined, error);
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });

  it('is an overall clock: values do not reset it', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-a-a-a-a-a|');
      expectObservable(source.pipe(deadline(8, () => 'late'))).toBe('-a-a-a-a#', undefined, 'late');
    });
  });

  it('lets a source that completes in time through untouched', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a-b|').pipe(deadline(10, () => 'late'))).toBe('-a-b|');
    });
  });
});
