import { describe, expect, it } from 'vitest';
import { inInputOrder } from './input-order.js';

describe('inInputOrder', () => {
  it('puts given URLs in the order given, and found pages after them in the order listed', () => {
    const listed = [{ url: 'https://x/c' }, { url: 'https://x/found' }, { url: 'https://x/a' }, {}];
    expect(inInputOrder(listed, ['https://x/a', 'https://x/b', 'https://x/c'])).toEqual([
      { url: 'https://x/a' },
      { url: 'https://x/c' },
      { url: 'https://x/found' },
      {},
    ]);
  });
});
