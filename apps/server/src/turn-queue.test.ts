import { describe, expect, it } from 'vitest';
import { TurnQueue } from './turn-queue.js';

describe('TurnQueue', () => {
  it('serves keys in turns, each in arrival order, and first come, first served with one key', () => {
    const queue = new TurnQueue<string>();
    for (const waiter of ['a1', 'a2', 'a3']) queue.push('a', waiter);
    queue.push('b', 'b1');
    queue.push('c', 'c1');
    queue.push('b', 'b2');
    expect(queue.size).toBe(6);
    expect(queue.peek()).toBe('a1');
    const served = Array.from({ length: 6 }, () => queue.shift());
    expect(served).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    expect(queue.shift()).toBeUndefined();
    expect(queue.size).toBe(0);

    const single = new TurnQueue<number>();
    for (const waiter of [1, 2, 3]) single.push('', waiter);
    expect([single.shift(), single.shift(), single.shift()]).toEqual([1, 2, 3]);
  });

  it('takes a removed waiter out, its key with it when it was the last', () => {
    const queue = new TurnQueue<string>();
    queue.push('a', 'a1');
    queue.push('b', 'b1');
    queue.push('a', 'a2');
    expect(queue.remove('b', 'b1')).toBe(true);
    expect(queue.remove('b', 'b1')).toBe(false);
    expect(queue.remove('a', 'b1')).toBe(false);
    expect(queue.size).toBe(2);
    queue.push('b', 'b2'); // b comes back after a, which is still waiting
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual(['a1', 'b2', 'a2']);
  });
});
