import { AuthenticationError, ConnectionError } from '@webdata/core';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { keepFollowing } from './keep-following.js';

function scheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('keepFollowing', () => {
  it('watches again 5 s after the watch gave up on a service that does not answer, and says so', () => {
    const down = new ConnectionError('GET /runs failed: ECONNREFUSED');
    const outages: unknown[] = [];
    scheduler().run(({ cold, expectObservable }) => {
      // The first watch gives up on the outage; the next sees the run go on and end.
      const watches = [
        cold('a 9ms #', { a: '38/378' }, down),
        cold('b 9ms (c|)', { b: '164/412', c: '526/530' }),
      ];
      const followed = keepFollowing(() => watches.shift()!, { onOutage: (error) => outages.push(error) });
      expectObservable(followed).toBe('a 5009ms b 9ms (c|)', { a: '38/378', b: '164/412', c: '526/530' });
    });
    expect(outages).toEqual([down]);
  });

  it('ends on any other error, as before', () => {
    const refused = new AuthenticationError({
      status: 401,
      code: 'unauthorized',
      message: 'the service refused the API key',
    });
    let watches = 0;
    scheduler().run(({ cold, expectObservable }) => {
      const followed = keepFollowing(
        () => {
          watches += 1;
          return cold('a 9ms #', { a: '1/3' }, refused);
        },
        { onOutage: () => undefined },
      );
      expectObservable(followed).toBe('a 9ms #', { a: '1/3' }, refused);
    });
    expect(watches).toBe(1);
  });
});
