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
        const release = await gate.acquire('a.test', 40);
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
    const waiting = gate.acquire('a.test', 0, controller.signal);
    const next = gate.acquire('a.test');
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    held();
    const release = await next; // the aborted waiter did not take the slot
    release();
    await expect(gate.acquire('a.test', 0, AbortSignal.abort(new Error('already')))).rejects.toThrow(
      'already',
    );
  });
});
