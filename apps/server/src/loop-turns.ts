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
 */
export class LoopTurns {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** Resolves on a later loop iteration, after every earlier caller has had its turn. */
  take(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
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
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.schedule();
    });
  }
}
