import { describe, expect, it } from 'vitest';
import { LoopTurns } from './loop-turns.js';

/** Busy-waits, as a large body's parse and validation do. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

describe('LoopTurns', () => {
  it('gives one turn per loop iteration: a timer that came due during a turn runs before the next turn', async () => {
    const turns = new LoopTurns();
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 1);
    await Promise.all([
      turns.take().then(() => {
        order.push('turn 1');
        work(5);
      }),
      turns.take().then(() => order.push('turn 2')),
      turns.take().then(() => order.push('turn 3')),
    ]);
    expect(order).toEqual(['turn 1', 'timer', 'turn 2', 'turn 3']);
  });

  it('serves callers in the order they asked', async () => {
    const turns = new LoopTurns();
    const order: number[] = [];
    await Promise.all(Array.from({ length: 20 }, (_, i) => turns.take().then(() => order.push(i))));
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
