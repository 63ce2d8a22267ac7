import { describe, expect, it } from 'vitest';
import { type BrowserProcess, RendererMemoryGuard, readResidentBytes } from './renderer-memory-guard.js';

const MB = 1024 * 1024;

function guardOver(
  processes: BrowserProcess[],
  resident: Record<number, number | undefined>,
  busy: () => boolean = () => true,
) {
  const killed: number[] = [];
  let looks = 0;
  const guard = new RendererMemoryGuard({
    limitBytes: 100 * MB,
    listProcesses: async () => {
      looks++;
      return processes;
    },
    busy,
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
      busy: () => true,
      kill: () => {
        throw new Error('nothing may be stopped');
      },
    });
    await expect(guard.look()).resolves.toBeUndefined();
    expect(guard.stoppedRenderers).toBe(0);
  });

  it('looks from watch() for as long as the service is busy, then stops until watched again', async () => {
    let busy = true;
    const { guard, looks } = guardOver([], {}, () => busy);
    guard.watch();
    guard.watch(); // one timer, however often watched
    await new Promise((resolve) => setTimeout(resolve, 60));
    const whileBusy = looks();
    expect(whileBusy).toBeGreaterThan(0);
    expect(whileBusy).toBeLessThanOrEqual(13); // one look per 5 ms tick at most, not two
    busy = false;
    await new Promise((resolve) => setTimeout(resolve, 30));
    const afterIdle = looks();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(looks()).toBe(afterIdle);
    busy = true;
    guard.watch();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(looks()).toBeGreaterThan(afterIdle);
    guard.stop();
  });

  it('reads this process’s resident memory from /proc, and nothing for a process that is not there', async () => {
    const resident = await readResidentBytes(process.pid);
    expect(resident).toBeGreaterThan(10 * MB);
    expect(resident).toBeLessThan(process.memoryUsage().rss * 2);
    expect(await readResidentBytes(2 ** 22 + 7)).toBeUndefined(); // above Linux's pid_max
  });
});
