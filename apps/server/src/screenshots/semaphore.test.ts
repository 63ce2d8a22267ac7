import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('Semaphore', () => {
  it('never lets more than `permits` tasks run at once, and runs them all', async () => {
    const semaphore = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const gates = Array.from({ length: 5 }, () => deferred());
    const tasks = gates.map((gate, i) =>
      semaphore.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await gate.promise;
        running--;
        return i;
      }),
    );
    await Promise.resolve();
    expect(semaphore.inUse).toBe(2);
    expect(semaphore.waiting).toBe(3);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(semaphore.inUse).toBe(0);
  });

  it('serves waiters in arrival order', async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.acquire();
    const order: number[] = [];
    const waiters = [1, 2, 3].map(async (n) => {
      const releaseMine = await semaphore.acquire();
      order.push(n);
      releaseMine();
    });
    release();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
  });

  it('gives freed permits to the keys in turn: one key queueing many does not hold back another key', async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.acquire(undefined, 'a');
    const order: string[] = [];
    const take = async (key: string, n: number) => {
      const releaseMine = await semaphore.acquire(undefined, key);
      order.push(`${key}${n}`);
      await Promise.resolve();
      releaseMine();
    };
    const waiters = [1, 2, 3, 4].map((n) => take('a', n));
    waiters.push(take('b', 1), take('b', 2), take('c', 1));
    expect(semaphore.waiting).toBe(7);
    release();
    await Promise.all(waiters);
    // Before, first come first served: a1 a2 a3 a4 b1 b2 c1.
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect([semaphore.inUse, semaphore.waiting]).toEqual([0, 0]);
  });

  it('drops an aborted waiter of a key, and the key once it has none', async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.acquire();
    const controller = new AbortController();
    const aborted = semaphore.acquire(controller.signal, 'a');
    const next = semaphore.acquire(undefined, 'b');
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(semaphore.waiting).toBe(1);
    release();
    (await next)();
    expect([semaphore.inUse, semaphore.waiting]).toEqual([0, 0]);
  });

  it('drops an aborted waiter from the queue', async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.acquire();
    const controller = new AbortController();
    const aborted = semaphore.acquire(controller.signal);
    const next = semaphore.acquire();
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(semaphore.waiting).toBe(1);
    release();
    const releaseNext = await next;
    expect(semaphore.inUse).toBe(1);
    releaseNext();
    releaseNext(); // a second release is ignored
    expect(semaphore.inUse).toBe(0);
    await expect(semaphore.acquire(AbortSignal.abort(new Error('early')))).rejects.toThrow('early');
  });
});
