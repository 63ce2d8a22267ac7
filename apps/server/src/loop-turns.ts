import type { EventEmitter } from 'node:events';

/**
 * Longest stretch, in ms, for which turns give way to a listener that keeps
 * accepting connections: a flood of connections delays the waiting work by
 * this much at most, then one turn runs before they give way again.
 */
export const GIVE_WAY_LIMIT_MS = 100;

/**
 * Hands out turns of the event loop, one per loop iteration, to work that
 * would otherwise run back to back. Node delivers callbacks that became ready
 * together as one chain: the ends of request bodies that arrived together,
 * the converter thread's answers for several pages. When each of them does
 * milliseconds of work on the main thread (parsing and validating a large
 * extraction schema; extracting 200 fields from a page), a burst of 40 held
 * every other request, `/healthz` included, for 300–600 ms. Taking a turn
 * first lets the loop poll for I/O between them, so what waits behind a
 * burst is one piece of work, not the whole burst. The server keeps one
 * instance for all such work.
 *
 * Polling for I/O serves every ready socket at once, with one exception: a
 * listening socket yields one new connection per loop iteration (libuv ≥
 * 1.45 no longer accepts in a loop; it relies on the socket staying
 * readable). A burst that opens 50 connections therefore puts 50 iterations
 * between any later connection and its accept — with a turn in each, 50
 * turns: a client that opened a connection just after the burst (a health
 * probe whose kept-alive connection the burst's client had taken) waited
 * 150–360 ms. So turns also give way to a listener ({@link giveWayTo}):
 * while it accepted a connection in the last iteration, the next turn waits
 * an iteration (cheap: no work runs in it), and the backlog drains first.
 */
export class LoopTurns {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;
  /** Whether a listener given way to accepted a connection since the last turn was handed out. */
  private accepted = false;
  /** When the current stretch of giving way began (`performance.now()`), or null outside one. */
  private givingWaySince: number | null = null;

  /** Resolves on a later loop iteration, after every earlier caller has had its turn. */
  take(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /**
   * Makes turns wait while `listener` (a `net.Server`) is still accepting
   * connections: accepting them, one per iteration, goes before the work
   * waiting for turns, for up to {@link GIVE_WAY_LIMIT_MS} at a stretch.
   */
  giveWayTo(listener: EventEmitter): void {
    listener.on('connection', () => {
      this.accepted = true;
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // An immediate queued from inside an immediate runs on the next iteration, after that iteration's
    // poll for I/O: one turn per iteration. (The resolved turn's continuation runs as a microtask before
    // the next immediate callback, so the whole of one caller's work happens within its turn.)
    setImmediate(() => {
      this.scheduled = false;
      if (this.givesWay()) {
        this.schedule();
        return;
      }
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.schedule();
    });
  }

  /** Whether this iteration's turn waits for the listener's backlog (and starts or continues a stretch of doing so). */
  private givesWay(): boolean {
    const accepted = this.accepted;
    this.accepted = false;
    if (!accepted) {
      this.givingWaySince = null;
      return false;
    }
    const now = performance.now();
    this.givingWaySince ??= now;
    if (now - this.givingWaySince < GIVE_WAY_LIMIT_MS) return true;
    this.givingWaySince = null;
    return false;
  }
}
