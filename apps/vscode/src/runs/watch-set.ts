/**
 * What to do with the live watch of runs in flight: keep the current one,
 * restart it with a new set of ids, or stop it.
 */
export type WatchPlan = { kind: 'keep' } | { kind: 'stop' } | { kind: 'restart'; ids: string[] };

/**
 * Decides which runs are watched when. The Runs view watches its runs in
 * flight, as one batched stream (`watchMany`), while the view is visible.
 * That stream drops each run by itself once it is terminal, so a set that
 * only shrinks keeps the stream (restarting it would cost a request for
 * nothing); a run new in flight restarts it with the new set; a run that
 * left the list (deleted) restarts it without that run, which the server
 * would otherwise answer with 404; nothing in flight stops it.
 *
 * @example
 * ```ts
 * const watch = new WatchSet();
 * watch.plan(['run_a', 'run_b'], known); // { kind: 'restart', ids: ['run_a', 'run_b'] }
 * watch.plan(['run_b'], known);          // { kind: 'keep' }: run_a ended, the stream dropped it
 * watch.plan(['run_b', 'run_c'], known); // { kind: 'restart', ids: ['run_b', 'run_c'] }
 * watch.plan([], known);                 // { kind: 'stop' }
 * ```
 */
export class WatchSet {
  #current: ReadonlySet<string> = new Set();

  /** The ids the live stream watches now. */
  get current(): ReadonlySet<string> {
    return this.#current;
  }

  /**
   * The plan for the runs in flight now (`inFlight`), given which runs are
   * still listed (`isListed`); the set watched becomes what the plan says.
   */
  plan(inFlight: readonly string[], isListed: (id: string) => boolean): WatchPlan {
    const wanted = new Set(inFlight);
    if (wanted.size === 0) {
      const wasWatching = this.#current.size > 0;
      this.#current = new Set();
      return wasWatching ? { kind: 'stop' } : { kind: 'keep' };
    }
    const grows = [...wanted].some((id) => !this.#current.has(id));
    const lostOne = [...this.#current].some((id) => !isListed(id));
    if (!grows && !lostOne) {
      // The stream has dropped the runs that ended; one that comes back into flight (a retry) needs a restart.
      this.#current = new Set([...this.#current].filter((id) => wanted.has(id)));
      return { kind: 'keep' };
    }
    this.#current = wanted;
    return { kind: 'restart', ids: [...wanted] };
  }

  /** Forgets the current set (its stream ended in an error): the next plan restarts. */
  reset(): void {
    this.#current = new Set();
  }
}
