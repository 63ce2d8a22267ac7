import { concatMap, take } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { paginate } from './paginate.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('paginate', () => {
  it('fetches page after page until next_cursor is null', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const pages: Record<string, { data: number[]; next_cursor: string | null }> = {
        first: { data: [1, 2], next_cursor: 'c2' },
        c2: { data: [3], next_cursor: 'c3' },
        c3: { data: [4], next_cursor: null },
      };
      const items$ = paginate((cursor) => cold('----(p|)', { p: pages[cursor ?? 'first']! })).pipe(
        concatMap((page) => page.data),
      );
      expectObservable(items$).toBe('----(ab)c---(d|)', { a: 1, b: 2, c: 3, d: 4 });
    });
  });

  it('is lazy: a subscriber that leaves after the first page never causes the second request', () => {
    const requested: (string | undefined)[] = [];
    scheduler().run(({ cold, expectObservable }) => {
      const items$ = paginate((cursor) => {
        requested.push(cursor);
        return cold('--(p|)', { p: { data: [1, 2], next_cursor: 'next' } });
      }).pipe(
        concatMap((page) => page.data),
        take(2),
      );
      expectObservable(items$).toBe('--(ab|)', { a: 1, b: 2 });
    });
    expect(requested).toEqual([undefined]);
  });

  it('errors on a cursor that comes back twice instead of looping', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const items$ = paginate(() => cold('-(p|)', { p: { data: [], next_cursor: 'same' } }));
      expectObservable(items$.pipe(concatMap((p) => p.data))).toBe('--#', undefined, expect.anything());
    });
  });
});
