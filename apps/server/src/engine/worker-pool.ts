import { setTimeout as sleep } from 'node:timers/promises';
import { originOf } from '../store/claim-order.js';
import { failedOutcome } from '../store/failed-outcome.js';
import type { ClaimedItem, ItemOutcome, Store } from '../store/store.js';
import { HostWaits } from './host-waits.js';
import { ResultWriter } from './result-writer.js';

/**
 * Turns one claimed item into its outcome; must honour `signal` (cancel, delete, shutdown).
 * `started` is called when the item's first request goes out: until then a shutdown puts the
 * item back in the queue at once instead of letting it begin during the drain. `hostWait` is
 * called with true while a request of the item queues for its host's turn (per-host concurrency,
 * crawl-delay) and with false when the turn comes: the item's slot is lent meanwhile.
 */
export type ItemProcessor = (
  item: ClaimedItem,
  signal: AbortSignal,
  started: () => void,
  hostWait: (waiting: boolean) => void,
) => Promise<ItemOutcome>;

export interface WorkerPoolOptions {
  workerId: string;
  concurrency: number;
  /** How long a claimed item stays leased without renewal; renewed every third of it. */
  leaseMs: number;
  /** How often an idle pool looks for work written by other processes. */
  idlePollMs: number;
  /** A run changed (an item of it was claimed or finished): long polls answer at once. */
  onRunChanged?: ((runId: string) => void) | undefined;
  onError?: ((error: unknown) => void) | undefined;
  /**
   * Group commit: how long a finished item waits for others to share its
   * transaction (ms; written at once when no other item is in flight).
   */
  commitDelayMs?: number | undefined;
  /**
   * Claimed items kept leased beyond the free slots, in the pool's own queue
   * (0 by default). Worth it when this pool is the queue's only worker: a
   * slot that frees starts its next page without a claim transaction. Where
   * other processes share the queue, items kept here are items they could
   * be fetching.
   */
  reserve?: number | undefined;
}

/** Default of {@link WorkerPoolOptions.commitDelayMs}: short beside a page's own time, long enough to share. */
export const COMMIT_DELAY_MS = 25;

/** A claimed item: its lease is held (renewed by its heartbeat) from the claim on. */
interface HeldItem {
  item: ClaimedItem;
  /** Its URL's origin (see {@link HostWaits}). */
  origin: string;
  controller: AbortController;
  renew: NodeJS.Timeout;
}

interface ActiveItem extends HeldItem {
  done: Promise<void>;
  /** Its first request has gone out (see {@link ItemProcessor}). */
  started: boolean;
  /** A request of it queues for its host's turn (see {@link ItemProcessor}): its slot is lent. */
  waitingForHost: boolean;
}

/**
 * Claims work items from the store's durable queue and processes up to
 * `concurrency` at once. An item is leased while it is processed; a worker
 * that dies leaves a lease that expires (or, embedded, is released at the
 * next start), so the item runs again and its result is written exactly once.
 *
 * With a reserve (the queue's only worker), a claim takes more items than
 * there are free slots: the rest wait, leased, in a local queue, and a slot
 * that frees takes its next item from there at once, without a claim
 * transaction between two pages. The pool claims again when half of that
 * reserve is used, a few items per transaction.
 */
export class WorkerPool {
  private readonly active = new Map<string, ActiveItem>();
  /** Claimed items waiting for a slot, oldest first (their leases held and renewed). */
  private readonly ready: HeldItem[] = [];
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** A wake that came while the loop was not waiting (during a claim): the next wait returns at once. */
  private woken = false;
  /** The last claim found fewer items than it asked for: what finished pages discover is the next work. */
  private starved = false;
  /**
   * An owner may be short of its share: a run was created (maybe another owner's), or an item
   * finished whose owner holds fewer items here than another owner does (its freed slot may be
   * for its next page). The next claim comes at the first free slot, or, with a reserve, at once.
   */
  private short = false;
  /** The last wait for a second free slot ran out, nothing having changed: a lone free slot is claimed too. */
  private quiet = false;
  /** Finished items whose outcome waits for its transaction. */
  private committing = 0;
  /** Items in a slot waiting for their host's turn, by run and origin (see {@link lentSlots}). */
  private readonly waitingForHost = new HostWaits();
  /** Writes finished items' outcomes several to a transaction. */
  readonly writer: ResultWriter;

  constructor(
    private readonly store: Store,
    private readonly process: ItemProcessor,
    private readonly options: WorkerPoolOptions,
  ) {
    this.writer = new ResultWriter(store, {
      maxBatch: options.concurrency,
      maxDelayMs: options.commitDelayMs ?? COMMIT_DELAY_MS,
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** There may be new work (a run created): look now rather than at the next idle poll. */
  poke(): void {
    this.short = true;
    this.signal(true);
  }

  /** Aborts the in-flight items of a run (cancel, delete) and drops its claimed items waiting for a slot. */
  abortRun(runId: string): void {
    for (const active of this.active.values()) {
      if (active.item.runId === runId) active.controller.abort(new Error('run cancelled'));
    }
    // A cancel or delete already took their leases: nothing to put back.
    for (const held of this.ready.filter((h) => h.item.runId === runId)) {
      this.ready.splice(this.ready.indexOf(held), 1);
      clearInterval(held.renew);
    }
  }

  /** Items being processed or waiting for their write. */
  get inFlight(): number {
    return this.active.size;
  }

  /** Claimed items waiting in the local queue for a slot. */
  get waiting(): number {
    return this.ready.length;
  }

  /** See {@link WorkerPoolOptions.reserve}. */
  private get reserve(): number {
    return this.options.reserve ?? 0;
  }

  /** Fewest free slots worth a claim while other items are in flight, with no reserve. */
  private get claimAtLeast(): number {
    return Math.max(1, Math.floor(this.options.concurrency / 4));
  }

  /**
   * Slots lent by items waiting for their host's turn, up to a pool's worth. A crawl-delay of a few
   * seconds held every slot with pages of that host, each waiting for its turn: another run of the
   * same key (48 pages of another host) took 71 s instead of 7 s beside one such crawl. Now a waiting
   * item lends its slot, and its run's pages at that origin are not claimed nor started while it waits
   * (they would only wait too; its pages of other hosts go on); the cap bounds the items held at twice
   * the pool, and so the work in progress when their turns come.
   */
  private get lentSlots(): number {
    return Math.min(this.waitingForHost.total, this.options.concurrency);
  }

  /** Items being fetched and converted (in flight, not waiting for their write nor for their host's turn). */
  private get processing(): number {
    return this.active.size - this.committing - this.lentSlots;
  }

  /**
   * Stops claiming and puts the claimed items still waiting for a slot back
   * in the queue, and so the items in a slot whose first request has not
   * gone out (waiting for robots.txt or their host's turn); lets in-flight
   * items finish for up to `drainMs`, then aborts the rest and puts them back
   * in the queue for the next start.
   */
  async stop(drainMs: number): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.signal();
    await this.loop;
    const waiting = this.ready.splice(0);
    for (const held of waiting) clearInterval(held.renew);
    await Promise.all(
      waiting.map((held) => this.store.releaseItem(held.item).catch((e) => this.options.onError?.(e))),
    );
    // Not begun: had they been left to start, a drain would wait for fetches begun after the stop.
    for (const active of this.active.values()) {
      if (!active.started) active.controller.abort(new Error('shutting down'));
    }
    const all = Promise.all([...this.active.values()].map((a) => a.done));
    const drained = await Promise.race([all.then(() => true), sleep(drainMs).then(() => false)]);
    if (!drained) {
      const left = [...this.active.values()];
      for (const active of left) active.controller.abort(new Error('shutting down'));
      await Promise.all(left.map((a) => a.done));
    }
    await this.writer.flush();
  }

  /**
   * Wakes the loop (a slot is free), or tells its next wait not to sleep;
   * `newWork`: items may have been queued (a batch committed, a run created),
   * so a claim is worth trying again even after one that found too little.
   */
  private signal(newWork = false): void {
    if (newWork) this.starved = false;
    if (this.wake) this.wake();
    else this.woken = true;
  }

  private async run(): Promise<void> {
    while (this.running) {
      // An owner short of its share claims first: the slot that freed is for what that claim finds, not
      // for the reserve's next item of an owner holding more.
      if (!this.short || this.starved) this.fill();
      // A claim is a write transaction of its own: it is due when half the reserve is used, and takes
      // enough to fill the free slots and the reserve again. After a claim that found too little, only
      // a change (a page finished or written, new work announced) or the idle poll brings the next one.
      // Without a reserve, slots are filled a few at a time (a quarter of the pool per claim), except when
      // nothing is in flight (a new run, the end of a crawl).
      // When an owner may be short of its share (see `short`), a claim is due at one free slot, and with
      // a reserve at once (one item more than the reserve when it is full): the claim gives the owners
      // holding the fewest items theirs first, and `fill` starts them at the next free slot, ahead of
      // the reserve's items of an owner holding more.
      let want = this.options.concurrency - this.processing + this.reserve - this.startable;
      // A lone free slot waits for a second (a claim per page is a transaction per page) only for
      // LONE_SLOT_WAIT_MS: pages that end at different times (slow ones, one of which started late) would
      // leave it empty for a whole page's time.
      let due =
        this.reserve > 0
          ? this.startable <= this.reserve / 2
          : want >= this.claimAtLeast || ((this.processing === 0 || this.quiet) && want > 0);
      this.quiet = false;
      if (this.short && (this.reserve > 0 || want > 0)) {
        due = true;
        want = Math.max(want, 1);
      }
      if (!this.starved && due && want > 0) {
        this.short = false;
        let claimed: ClaimedItem[] = [];
        try {
          claimed = await this.store.claimItems(
            this.options.workerId,
            want,
            this.options.leaseMs,
            this.waitingForHost.claimWaiting(),
          );
        } catch (error) {
          this.options.onError?.(error);
        }
        this.starved = claimed.length < want;
        for (const item of claimed) this.ready.push(this.hold(item));
        this.fill();
        for (const runId of new Set(claimed.map((item) => item.runId))) this.options.onRunChanged?.(runId);
        // Slots would stay free: the pages waiting for their write may hold the next links, so write now.
        if (this.starved) this.writer.flushSoon();
        if (!this.starved) continue;
      }
      this.fill();
      await this.idle(this.reserve === 0 && !this.starved && !due && want > 0);
    }
  }

  /**
   * Waits for a change or the idle poll (which looks for work written by other processes), or with
   * `lone` (a free slot waiting for a second) for LONE_SLOT_WAIT_MS, after which the slot is claimed.
   */
  private async idle(lone = false): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return;
    }
    const polled = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(
        () => resolve(true),
        lone ? Math.min(LONE_SLOT_WAIT_MS, this.options.idlePollMs) : this.options.idlePollMs,
      );
      this.wake = () => {
        clearTimeout(timer);
        resolve(false);
      };
    });
    this.wake = null;
    this.woken = false;
    if (polled) {
      if (!lone) this.starved = false;
      this.quiet = true;
    }
  }

  /**
   * Starts claimed items in the free slots, each the oldest waiting item of the owner with the fewest
   * items in slots (owners share the slots); drops those whose lease was lost meanwhile.
   */
  private fill(): void {
    while (this.running && this.processing < this.options.concurrency) {
      const next = this.nextReady();
      if (next === -1) break;
      const held = this.ready.splice(next, 1)[0]!;
      if (held.controller.signal.aborted) clearInterval(held.renew);
      else this.begin(held);
    }
  }

  /**
   * Claimed items that may start now: those of a run and origin with a page waiting for its host's
   * turn stay in `ready` until it comes (they would wait too), and are not counted as the reserve.
   */
  private get startable(): number {
    if (this.waitingForHost.total === 0) return this.ready.length;
    return this.ready.filter((held) => !this.heldBack(held)).length;
  }

  /** Whether a page of the same run at the same origin waits for its host's turn (see {@link startable}). */
  private heldBack(held: HeldItem): boolean {
    return this.waitingForHost.has(held.item.runId, held.origin);
  }

  /**
   * Index in `ready` of the oldest {@link startable} item of the owner with the fewest items in
   * slots; -1 when none may start.
   */
  private nextReady(): number {
    const inSlots = new Map<string, number>();
    for (const active of this.active.values()) {
      inSlots.set(active.item.owner, (inSlots.get(active.item.owner) ?? 0) + 1);
    }
    let best = -1;
    let fewest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.ready.length && fewest > 0; i += 1) {
      const held = this.ready[i]!;
      if (this.heldBack(held)) continue;
      const { item } = held;
      const count = inSlots.get(item.owner) ?? 0;
      if (count < fewest) {
        best = i;
        fewest = count;
      }
    }
    return best;
  }

  /**
   * `owner` holds fewer items here (in a slot or waiting for one; `finishing` of them not counted)
   * than another owner does.
   */
  private shortOfOthers(owner: string, finishing = 0): boolean {
    const counts = new Map<string, number>();
    for (const { item } of [...this.active.values(), ...this.ready]) {
      counts.set(item.owner, (counts.get(item.owner) ?? 0) + 1);
    }
    const own = (counts.get(owner) ?? 0) - finishing;
    for (const [other, count] of counts) if (other !== owner && count > own) return true;
    return false;
  }

  /** Starts the heartbeat of a claimed item: a lease found lost (cancelled, deleted, reaped) stops it at once. */
  private hold(item: ClaimedItem): HeldItem {
    const controller = new AbortController();
    const renew = setInterval(() => {
      this.store.renewLease(item, this.options.leaseMs).then(
        (held) => held || controller.abort(new Error('lease lost')),
        (error) => this.options.onError?.(error),
      );
    }, this.options.leaseMs / 3);
    return { item, origin: originOf(item.url), controller, renew };
  }

  /**
   * Writes an outcome, trying again while the store is away for a moment (a
   * database restart) and the lease may still be held: the work is not lost
   * to a short outage. Past the lease the store refuses the write anyway, and
   * the item runs again elsewhere.
   */
  private async complete(item: ClaimedItem, outcome: ItemOutcome, signal: AbortSignal): Promise<void> {
    const deadline = Date.now() + this.options.leaseMs;
    // An owner holding fewer items here than another keeps this slot until the write is done: the
    // links it writes may be that owner's next pages, and the reserve's items of the other owner would
    // take the slot meanwhile.
    const keep = this.shortOfOthers(item.owner, 1);
    for (;;) {
      if (!keep) this.committing += 1;
      try {
        const written = this.writer.complete(item, outcome);
        // No other item could join the batch (all in flight wait for a write), or the queue had no
        // more work to give (this page's links may be the next): no reason to wait.
        if (this.processing === 0) void this.writer.flush();
        else if (this.starved) this.writer.flushSoon();
        // Its slot is free: the next claimed item starts.
        if (!keep) this.signal();
        await written;
        return;
      } catch (error) {
        if (!isUnavailable(error) || Date.now() > deadline || signal.aborted) throw error;
        await sleep(COMPLETE_RETRY_MS);
      } finally {
        if (!keep) this.committing -= 1;
      }
    }
  }

  private begin(held: HeldItem): void {
    const { item, controller, renew } = held;
    const active: ActiveItem = { ...held, done: Promise.resolve(), started: false, waitingForHost: false };
    const started = () => {
      if (active.started) return;
      active.started = true;
      // Durably, before the page's work can kill the process: a page whose process dies in it each
      // time fails after its allowed starts (store/crashed-outcome.ts) instead of running again without end.
      // SQLite writes it before this returns, so before the request goes out; PostgreSQL's write
      // is under way with the request and commits long before the page's body is read and converted.
      this.store.startItem(item).catch((error) => this.options.onError?.(error));
    };
    const hostWait = (waiting: boolean) => {
      if (waiting === active.waitingForHost || !this.active.has(item.itemId)) return;
      active.waitingForHost = waiting;
      this.waitingForHost.change(item.runId, held.origin, waiting);
      // Waiting: its slot is free for a claim. Its turn come: its run's pages there may be claimed again.
      this.signal(true);
    };
    // In the map before the processor runs: it may say it waits for its host's turn at once.
    this.active.set(item.itemId, active);
    active.done = (async () => {
      try {
        const outcome = await this.process(item, controller.signal, started, hostWait);
        if (controller.signal.aborted) await this.store.releaseItem(item);
        else await this.complete(item, outcome, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) {
          // Shutdown puts the item back; a cancel or delete already took the lease, so this changes nothing.
          await this.store.releaseItem(item).catch((e) => this.options.onError?.(e));
        } else if (isUnavailable(error)) {
          // The store stayed away past the lease: the item goes back to the queue when its lease expires.
          this.options.onError?.(error);
        } else {
          // A processor turns page problems into failed outcomes; reaching here is a bug, recorded on the item.
          this.options.onError?.(error);
          await this.store.completeItem(item, internalFailure()).catch((e) => this.options.onError?.(e));
        }
      } finally {
        clearInterval(renew);
        hostWait(false);
        this.active.delete(item.itemId);
        // Its owner holds fewer items here than another: its next pages (maybe this one's links) are due
        // in the slot it freed, not after the other owner's.
        if (this.shortOfOthers(item.owner)) this.short = true;
        this.options.onRunChanged?.(item.runId);
        // Written (or given up): the links it discovered are in the queue now.
        this.signal(true);
      }
    })();
  }
}

/** Longest a lone free slot waits for a second before it is claimed alone (no reserve). */
const LONE_SLOT_WAIT_MS = 2 * COMMIT_DELAY_MS;

/** Pause between tries of a result write while the store is away. */
const COMPLETE_RETRY_MS = 500;

function isUnavailable(error: unknown): boolean {
  return (error as { code?: unknown })?.code === 'unavailable';
}

function internalFailure(): ItemOutcome {
  return failedOutcome({
    code: 'internal',
    message: 'an internal error stopped this page; it is logged on the server',
  });
}
