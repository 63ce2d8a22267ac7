import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';

describe('newId', () => {
  it('gives the prefix, ten time characters and sixteen random ones', () => {
    expect(newId('itm', 0)).toMatch(/^itm_0{10}[0-9a-hjkmnp-tv-z]{16}$/);
  });

  it('never repeats across many refills of its random pool', () => {
    const ids = new Set<string>();
    // 4,096 pooled bytes hold 409 ids: this crosses the refill many times.
    for (let i = 0; i < 20_000; i++) ids.add(newId('itm', 1_700_000_000_000).slice(14));
    expect(ids.size).toBe(20_000);
  });
});
