import { describe, expect, it } from 'vitest';
import { inInputOrder, inputRank } from './input-order.js';

describe('inInputOrder', () => {
  it('puts the given URLs in the order given, and pages found by a crawl after them as listed', () => {
    const listed = [{ url: 'https://x/c' }, { url: 'https://x/found' }, { url: 'https://x/a' }, {}];
    expect(inInputOrder(listed, ['https://x/a', 'https://x/b', 'https://x/c'])).toEqual([
      { url: 'https://x/a' },
      { url: 'https://x/c' },
      { url: 'https://x/found' },
      {},
    ]);
  });

  it('keeps the listed order without URLs to order by, and does not touch its input', () => {
    const listed = [{ url: 'https://x/b' }, { url: 'https://x/a' }];
    expect(inInputOrder(listed, undefined)).toEqual(listed);
    inInputOrder(listed, ['https://x/a', 'https://x/b']);
    expect(listed[0]).toEqual({ url: 'https://x/b' });
  });

  it('ranks a URL by its first place among the given, and any other after them all', () => {
    const rank = inputRank(['https://x/a', 'https://x/b', 'https://x/a']);
    expect([rank('https://x/a'), rank('https://x/b'), rank('https://x/found'), rank(undefined)]).toEqual([
      0, 1, 3, 3,
    ]);
    expect(inputRank(undefined)('https://x/a')).toBe(0);
  });
});
