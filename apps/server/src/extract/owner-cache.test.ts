import { describe, expect, it } from 'vitest';
import { OwnerCache } from './owner-cache.js';

const limits = { entriesPerOwner: 3, weightPerOwner: 100, entries: 5, weight: 1000 };

describe('OwnerCache', () => {
  it("an owner's stream of new entries evicts only its own oldest ones", () => {
    const cache = new OwnerCache<number>(limits);
    cache.set('b', 'kept', 1, 1);
    for (let i = 0; i < 50; i++) cache.set('a', `k${i}`, i, 1);
    expect(cache.held('a')).toEqual({ entries: 3, weight: 3 });
    expect(cache.get('a', 'k49')).toBe(49);
    expect(cache.get('a', 'k46')).toBeUndefined();
    expect(cache.get('b', 'kept')).toBe(1);
  });

  it('bounds the weight of an owner and of all owners, least recently used first', () => {
    const cache = new OwnerCache<string>(limits);
    cache.set('a', 'x', 'x', 60);
    cache.set('a', 'y', 'y', 30);
    expect(cache.get('a', 'x')).toBe('x'); // x is now the most recently used
    cache.set('a', 'z', 'z', 30);
    expect(cache.get('a', 'y')).toBeUndefined();
    expect(cache.held('a')).toEqual({ entries: 2, weight: 90 });
    cache.set('a', 'huge', 'huge', 101);
    expect(cache.get('a', 'huge')).toBeUndefined();
    for (const owner of ['b', 'c', 'd', 'e']) cache.set(owner, 'k', owner, 1);
    expect(cache.held()).toEqual({ entries: 5, weight: 34 });
    expect(cache.get('a', 'x')).toBeUndefined();
  });

  it('never answers one owner with another owner entry, whatever the spelling', () => {
    const cache = new OwnerCache<string>(limits);
    cache.set('a:', 'b', 'first', 1);
    expect(cache.get('a', ':b')).toBeUndefined();
    expect(cache.get('a:', 'b')).toBe('first');
  });
});
