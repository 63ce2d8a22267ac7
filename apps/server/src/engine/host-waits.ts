import type { WaitingOrigins } from '../store/claim-order.js';

/**
 * The pages in a worker pool's slots that wait for their host's turn (a crawl-delay), counted by
 * run and by the origin of the page's URL. A run's other pages at that origin would only wait too,
 * so they are neither claimed nor started meanwhile; its pages of other hosts go on.
 */
export class HostWaits {
  readonly #byRun = new Map<string, Map<string, number>>();
  #total = 0;

  /** Pages waiting, of every run (the slots they lend). */
  get total(): number {
    return this.#total;
  }

  /** A page of `runId` at `origin` starts (`true`) or stops (`false`) waiting for its host's turn. */
  change(runId: string, origin: string, waiting: boolean): void {
    const origins = this.#byRun.get(runId) ?? new Map<string, number>();
    const count = (origins.get(origin) ?? 0) + (waiting ? 1 : -1);
    if (count > 0) origins.set(origin, count);
    else origins.delete(origin);
    if (origins.size > 0) this.#byRun.set(runId, origins);
    else this.#byRun.delete(runId);
    this.#total += waiting ? 1 : -1;
  }

  /** Whether a page of `runId` at `origin` waits for its host's turn now. */
  has(runId: string, origin: string): boolean {
    return this.#byRun.get(runId)?.has(origin) ?? false;
  }

  /** What a claim passes over (see `Store.claimItems`); undefined when no page waits. */
  claimWaiting(): WaitingOrigins | undefined {
    if (this.#byRun.size === 0) return undefined;
    return new Map([...this.#byRun].map(([runId, origins]) => [runId, new Set(origins.keys())]));
  }
}
