import { afterEach, describe, expect, it } from 'vitest';
import { ThreadPool } from './thread-pool.js';

let pool: ThreadPool<number, number> | undefined;
afterEach(async () => pool?.close());

describe('ThreadPool.start', () => {
  it('resolves even when a thread dies loading its script; jobs then run inline', async () => {
    // No script of that name sits beside this file: the thread fails to import it and exits.
    pool = new ThreadPool('no-such-thread-script', import.meta.url, 1, {}, (n: number) => n * 2);
    await pool.start();
    expect(pool.loadedThreads).toBe(0);
    expect(await pool.run(21)).toBe(42);
  });

  it('starts nothing with 0 threads or after close', async () => {
    pool = new ThreadPool('no-such-thread-script', import.meta.url, 0, {}, (n: number) => n + 1);
    await pool.start();
    expect(pool.loadedThreads).toBe(0);
    expect(await pool.run(1)).toBe(2);
  });
});
