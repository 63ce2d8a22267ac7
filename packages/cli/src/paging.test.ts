import { describe, expect, it } from 'vitest';
import { firstItems } from './paging.js';

/** A list of `count` numbers served in pages of at most `cap`, with offset cursors. */
function list(count: number, cap: number) {
  const asked: number[] = [];
  const fetchPage = async (cursor: string | undefined, size: number) => {
    asked.push(size);
    const from = Number(cursor ?? 0);
    const to = Math.min(from + Math.min(size, cap), count);
    const data = Array.from({ length: to - from }, (_, i) => from + i);
    return { data, next_cursor: to < count ? String(to) : null };
  };
  return { fetchPage, asked };
}

describe('firstItems', () => {
  it('pages past one API page up to the limit, and says the list goes on', async () => {
    const { fetchPage, asked } = list(500, 200);
    const first = await firstItems(fetchPage, 450, 200);
    expect(first.data).toHaveLength(450);
    expect(first.data.at(-1)).toBe(449);
    expect(asked).toEqual([200, 200, 50]);
    expect(first).toMatchObject({ more: true, next_cursor: '450' });
  });

  it('stops at the end of the list without saying there is more', async () => {
    const { fetchPage } = list(5, 2);
    const all = await firstItems(fetchPage, 100, 2);
    expect(all).toEqual({ data: [0, 1, 2, 3, 4], next_cursor: null, more: false });
  });

  it('keeps no more than the limit from a server that sends more than asked, and says so', async () => {
    const first = await firstItems(async () => ({ data: [1, 2, 3], next_cursor: null }), 2, 200);
    expect(first).toEqual({ data: [1, 2], next_cursor: null, more: true });
  });

  it('stops on a cursor sent twice', async () => {
    const first = await firstItems(async () => ({ data: [], next_cursor: 'again' }), 10, 200);
    expect(first).toMatchObject({ data: [], more: true });
  });
});
