import { describe, expect, it } from 'vitest';
import { type BrowserProcess, RendererMemoryGuard, readResidentBytes } from './renderer-memory-guard.js';

const MB = 1024 * 1024;

function guardOver(processes: BrowserProcess[], resident: Record<number, number | undefined>) {
  const killed: number[] = [];
  let looks = 0;
  const guard = new RendererMemoryGuard({
    limitBytes: 100 * MB,
    listProcesses: async () => {
      looks++;
      return processes;
    },
    readResident: async (pid) => resident[pid],
    kill: (pid) => killed.push(pid),
    intervalMs: 5,
  });
  return { guard, killed, looks: () => looks };
}

describe('RendererMemoryGuard', () => {
  it('stops the renderers over the limit, and no other process however large', async () => {
    const { guard, killed } = guardOver(
      [
        { type: 'browser', id: 1 },
        { type: 'renderer', id: 2 },
        { type: 'renderer', id: 3 },
        { type: 'GPU', id: 4 },
        { type: 'renderer', id: 5 },
      ],
      { 1: 900 * MB, 2: 101 * MB, 3: 100 * MB, 4: 900 * MB, 5: undefined },
    );
    await guard.look();
    expect(killed).toEqual([2]);
    expect(guard.stoppedRenderers).toBe(1);
  });

  it('does nothing when the process list cannot be had', async () => {
    const guard = new RendererMemoryGuard({
      limitBytes: MB,
      listProcesses: () => Promise.reject(new Error('browser gone')),
      kill: () => {
        throw new Error('nothing may be stopped');
      },
    });
    await expect(guard.look()).resolves.toBeUndefined();
    expect(guard.stoppedRenderers).toBe(0);
  });

  it('looks only while a capture is in flight', async () => {
    const { guard, looks } = guardOver([], {});
    guard.enter();
    guard.enter();
    await new Promise((resolve) => setTimeout(resolve, 60));
    guard.leave();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(looks()).toBeGreaterThan(0); // one capture still in flight
    guard.leave();
    await new Promise((resolve) => setTimeout(resolve, 20)); // a look begun before the last leave ends
    const afterLeave = looks();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(looks()).toBe(afterLeave);
  });

  it('reads this process’s resident memory from /proc, and nothing for a process that is not there', async () => {
    const resident = await readResidentBytes(process.pid);
    expect(resident).toBeGreaterThan(10 * MB);
    expect(resident).toBeLessThan(process.memoryUsage().rss * 2);
    expect(await readResidentBytes(2 ** 22 + 7)).toBeUndefined(); // above Linux's pid_max
  });
});
