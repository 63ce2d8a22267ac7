import type { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { nextPollDelay, type PollAnswer, pollAdaptive } from './pollAdaptive.js';

function testScheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

const policy = { initialMs: 10, maxMs: 40, factor: 2, minLongPollMs: 5 };

describe('pollAdaptive', () => {
  it('polls fast first, backs off while nothing changes and resets on a change', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const values = ['x', 'x', 'x', 'x', 'y', 'y'];
      const starts: number[] = [];
      let call = 0;
      const poll$ = pollAdaptive<string>(
        () => {
          starts.push(scheduler.now());
          const value = values[call++] ?? 'y';
          return cold('--(a|)', { a: { value } }) as Observable<PollAnswer<string>>;
        },
        { ...policy, key: (v) => v, scheduler },
      );
      // answers take 2 ms; delays after them: 10 (first), 20, 40, 40 (cap), 10 (changed), 20
      expectObservable(poll$, '^ 170ms !').toBe('--a 11ms b 21ms c 41ms d 41ms e 11ms f 21ms g', {
        a: 'x',
        b: 'x',
        c: 'x',
        d: 'x',
        e: 'y',
        f: 'y',
        g: 'y',
      });
      scheduler.flush();
      expect(starts).toEqual([0, 12, 34, 76, 118, 130, 152]);
    });
  });

  it('never overlaps requests and aborts the one in flight on unsubscribe', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold<PollAnswer<string>>('-----(a|)', { a: { value: 'x' } });
      const poll$ = pollAdaptive(() => request, { ...policy, key: (v) => v });
      // requests at 0 (answer 5), 15 (answer 20), 40: unsubscribed at 44 while in flight
      expectObservable(poll$, '^ 43ms !').toBe('-----a 14ms b', { a: 'x', b: 'x' });
      expectSubscriptions(request.subscriptions).toBe(['^----!', '15ms ^----!', '40ms ^---!']);
    });
  });

  it('never polls sooner than the server hint', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold<PollAnswer<string>>('-(a|)', { a: { value: 'x', hintMs: 50 } });
      const poll$ = pollAdaptive(() => request, { ...policy, key: (v) => v });
      expectObservable(poll$, '^ 60ms !').toBe('-a 50ms b', { a: 'x', b: 'x' });
      expectSubscriptions(request.subscriptions).toBe(['^!', '51ms ^!']);
    });
  });

  it('re-polls at once after a genuine long poll', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const slow = cold<PollAnswer<string>>('-------(a|)', { a: { value: 'x', longPolled: true } });
      expectObservable(
        pollAdaptive(() => slow, { ...policy, key: (v) => v }),
        '^ 24ms !',
      );
      expectSubscriptions(slow.subscriptions).toBe([
        '^------!',
        '7ms ^------!',
        '14ms ^------!',
        '21ms ^---!',
      ]);
    });
  });

  it('backs off when a "long poll" came back unchanged too fast to be one', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const fast = cold<PollAnswer<string>>('-(a|)', { a: { value: 'x', longPolled: true } });
      expectObservable(
        pollAdaptive(() => fast, { ...policy, key: (v) => v }),
        '^ 34ms !',
      );
      // the first answer is a change (0 delay), the next one unchanged after 1 ms: backoff 20
      expectSubscriptions(fast.subscriptions).toBe(['^!', '1ms ^!', '22ms ^!']);
    });
  });

  it('treats a 304 (no value) as unchanged and emits nothing for it', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      let call = 0;
      const poll$ = pollAdaptive<string>(
        () => (call++ === 0 ? cold('-a|', { a: { value: 'x' } }) : cold('-n|', { n: {} })),
        { ...policy, key: (v) => v },
      );
      expectObservable(poll$, '^ 60ms !').toBe('-a', { a: 'x' });
    });
  });

  it('errors when a request errors', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const poll$ = pollAdaptive<string>(() => cold('--#', {}, new Error('boom')), policy);
      expectObservable(poll$).toBe('--#', {}, new Error('boom'));
    });
  });
});

describe('nextPollDelay', () => {
  it('takes the longer of its own interval and the hint, and ignores the hint after a long poll', () => {
    const state = { intervalMs: 40, lastKey: 'x' };
    expect(nextPollDelay(state, policy, { changed: false, hintMs: 5, elapsedMs: 1 }).delayMs).toBe(40);
    expect(nextPollDelay(state, policy, { changed: true, hintMs: 25, elapsedMs: 1 }).delayMs).toBe(25);
    expect(
      nextPollDelay(state, policy, { changed: true, hintMs: 1000, longPolled: true, elapsedMs: 1 }).delayMs,
    ).toBe(0);
  });

  it('caps the backoff at maxMs', () => {
    let state = { intervalMs: 10, lastKey: undefined };
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const next = nextPollDelay(state, policy, { changed: false, elapsedMs: 1 });
      state = next.state as typeof state;
      delays.push(next.delayMs);
    }
    expect(delays).toEqual([20, 40, 40, 40, 40]);
  });
});
