import { EventEmitter } from 'node:events';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { GIVE_WAY_LIMIT_MS, LoopTurns } from './loop-turns.js';

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

describe('LoopTurns giving way to a listener', () => {
  /** Opens `count` connections to `server` (their handshakes complete in the kernel, before any accept). */
  async function connectionsQueuedAt(server: Server, count: number): Promise<Socket[]> {
    const { port } = server.address() as AddressInfo;
    const sockets = Array.from({ length: count }, () => connect(port, '127.0.0.1'));
    // net.connect issues its connect(2) on the next tick; the kernel completes the loopback handshakes on its
    // own, so holding this thread a moment (as a turn's work would) leaves them all waiting to be accepted.
    await new Promise((resolve) => process.nextTick(resolve));
    work(20);
    return sockets;
  }

  async function acceptOrder(giveWay: boolean): Promise<string[]> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const turns = new LoopTurns();
    if (giveWay) turns.giveWayTo(server);
    const order: string[] = [];
    server.on('connection', () => order.push('connection'));
    const sockets = await connectionsQueuedAt(server, 20);
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        turns.take().then(() => {
          order.push(`turn ${i + 1}`);
          work(2);
        }),
      ),
    );
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    return order;
  }

  it('lets a backlog of connections in before the next turn: libuv accepts one per iteration', async () => {
    const order = await acceptOrder(true);
    // The first turn may run before the loop polls at all; every connection is in before the second.
    expect(order.filter((event) => event === 'connection')).toHaveLength(20);
    expect(order.indexOf('turn 2')).toBeGreaterThan(order.lastIndexOf('connection'));
  });

  it('without giving way, the backlog is accepted one connection per turn (why the listener is given way to)', async () => {
    const order = await acceptOrder(false);
    // Turns and accepts interleave: at most one connection between two turns.
    const between = order.slice(order.indexOf('turn 1'), order.indexOf('turn 5'));
    expect(between.filter((event) => event === 'connection').length).toBeLessThanOrEqual(4);
  });

  it('gives way to a flood of connections, then runs the turn all the same (after GIVE_WAY_LIMIT_MS)', async () => {
    const listener = new EventEmitter();
    const turns = new LoopTurns();
    turns.giveWayTo(listener);
    // A listener that accepts a connection on every iteration, without end.
    let flooding = true;
    const flood = () => {
      listener.emit('connection');
      if (flooding) setImmediate(flood);
    };
    flood();
    const started = performance.now();
    await turns.take();
    const waited = performance.now() - started;
    flooding = false;
    expect(waited).toBeGreaterThanOrEqual(GIVE_WAY_LIMIT_MS - 1);
  });
});
