import { describe, expect, it } from 'vitest';
import { HostGate } from './host-gate.js';

describe('HostGate', () => {
  it('never lets more than the limit in flight per host, and serves waiters in order', async () => {
    const gate = new HostGate(2);
    let inFlight = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const release = await gate.acquire('a.test');
        order.push(i);
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight -= 1;
        release();
      }),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps hosts independent', async () => {
    const gate = new HostGate(1);
    const a = await gate.acquire('a.test');
    const b = await gate.acquire('b.test'); // would hang if hosts shared a slot
    expect(gate.inFlight('a.test')).toBe(1);
    expect(gate.inFlight('b.test')).toBe(1);
    a();
    b();
    a(); // a second release is ignored
    expect(gate.inFlight('a.test')).toBe(0);
  });

  it('spaces request starts to one host by the delay', async () => {
    const gate = new HostGate(4);
    const starts: number[] = [];
    await Promise.all(
      [0, 1, 2].map(async () => {
        const release = await gate.acquire('a.test', { delayMs: 40 });
        starts.push(performance.now());
        release();
      }),
    );
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(38);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(38);
  });

  it('drops an aborted waiter at once with the signal reason', async () => {
    const gate = new HostGate(1);
    const held = await gate.acquire('a.test');
    const controller = new AbortController();
    const waiting = gate.acquire('a.test', { signal: controller.signal });
    const next = gate.acquire('a.test');
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    held();
    const release = await next; // the aborted waiter did not take the slot
    release();
    await expect(gate.acquire('a.test', { signal: AbortSignal.abort(new Error('already')) })).rejects.toThrow(
      'already',
    );
  });

  it("serves a host's waiters by key in turns: one owner's many pages do not hold another's one back", async () => {
    const gate = new HostGate(1);
    const held = await gate.acquire('a.test', { key: 'big' });
    const order: string[] = [];
    const queued: string[] = [];
    const waits = [
      ['big', 'big-1'],
      ['big', 'big-2'],
      ['big', 'big-3'],
      ['small', 'small-1'],
    ].map(async ([key, name]) => {
      const release = await gate.acquire('a.test', { key, onQueued: () => queued.push(name!) });
      order.push(name!);
      await new Promise((r) => setTimeout(r, 2));
      release();
    });
    held();
    await Promise.all(waits);
    expect(order).toEqual(['big-1', 'small-1', 'big-2', 'big-3']);
    expect(queued).toEqual(['big-1', 'big-2', 'big-3', 'small-1']);
  });

  it('keeps the delay between starts while serving keys in turns', async () => {
    const gate = new HostGate(4);
    const starts: Array<[string, number]> = [];
    await Promise.all(
      // The first x is served at once; the other two wait under x, which y then follows.
      ['x', 'x', 'x', 'y'].map(async (key) => {
        const release = await gate.acquire('a.test', { delayMs: 30, key });
        starts.push([key, performance.now()]);
        release();
      }),
    );
    expect(starts.map(([key]) => key)).toEqual(['x', 'x', 'y', 'x']);
    for (let i = 1; i < starts.length; i += 1) {
      expect(starts[i]![1] - starts[i - 1]![1]).toBeGreaterThanOrEqual(28);
    }
  });
});
