import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AbortError, TimeoutError } from './errors.js';
import { type ItemPage, PagedStream } from './paged-stream.js';

const pages: Record<string, ItemPage<number>> = {
  first: { data: [1, 2, 3], next_cursor: 'p2' },
  p2: { data: [4, 5, 6], next_cursor: null },
};

function stream(signal?: AbortSignal) {
  const asked: (string | undefined)[] = [];
  const paged = new PagedStream<number>((cursor) => {
    asked.push(cursor);
    return of(pages[cursor ?? 'first']!);
  }, signal);
  return { paged, asked };
}

describe('PagedStream', () => {
  it('iterates every item, asking for each page once', async () => {
    const { paged, asked } = stream();
    expect(await paged.toArray()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(asked).toEqual([undefined, 'p2']);
  });

  it('stops at the next item once the caller aborts, even within a page already read', async () => {
    const controller = new AbortController();
    const { paged, asked } = stream(controller.signal);
    const seen: number[] = [];
    const error = await (async () => {
      for await (const item of paged) {
        seen.push(item);
        if (item === 1) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(seen).toEqual([1]);
    expect(asked).toEqual([undefined]);
  });

  it('says TimeoutError when the caller signal timed out', async () => {
    const signal = AbortSignal.timeout(1);
    await new Promise((r) => setTimeout(r, 20));
    await expect(stream(signal).paged.toArray()).rejects.toBeInstanceOf(TimeoutError);
  });
});
