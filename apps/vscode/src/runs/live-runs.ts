import {
  asyncScheduler,
  catchError,
  combineLatest,
  defer,
  distinctUntilChanged,
  EMPTY,
  exhaustMap,
  filter,
  from,
  ignoreElements,
  map,
  merge,
  type Observable,
  type SchedulerLike,
  Subject,
  startWith,
  switchMap,
  tap,
  timer,
} from 'rxjs';
import type { RunsApi } from './runs-api.js';
import type { RunsLoader } from './runs-loader.js';
import type { RunsStore } from './runs-store.js';
import { WatchSet } from './watch-set.js';

/** How the live view spaces its requests. */
export interface LiveRunsOptions {
  /** Between two list refreshes (runs started elsewhere), in ms. */
  refreshMs: number;
  /** Runs asked for by a list refresh: the newest few are enough to spot new ones. */
  refreshPageSize: number;
  /** Before watching again after the watch stream failed, in ms. */
  retryMs: number;
  /** Virtual time in tests. */
  scheduler?: SchedulerLike | undefined;
}

/** Where the live updates come from: a failure of the watch or of a list refresh. */
export type LiveRunsFailure = { source: 'watch' | 'refresh'; error: unknown };

/**
 * Keeps the Runs view live while it is visible and asks nothing while it is
 * hidden. Two streams, both stopped when the view hides or the connection goes:
 * - the runs in flight, watched as one batched stream with the client's
 *   `watchMany` (adaptive polling or long polls, shared per run), restarted
 *   only as the {@link WatchSet} says; every snapshot goes into the store;
 * - a small list refresh every `refreshMs` that brings in runs started
 *   elsewhere (and drops runs deleted elsewhere); when the view comes back
 *   into sight it runs at once, since nothing was asked while it was hidden.
 *   When the view's listing failed, the first refresh that gets an answer
 *   lists the runs again.
 */
export class LiveRuns {
  readonly #store: RunsStore;
  readonly #loader: RunsLoader;
  #options: LiveRunsOptions;
  readonly #failures = new Subject<LiveRunsFailure>();
  readonly #refreshNow = new Subject<void>();
  /** Failures of the live streams (logged and shown by the caller; the streams retry on their own). */
  readonly failures$ = this.#failures.asObservable();
  readonly #answered = new Subject<void>();
  /**
   * The service answered (again) with this key: a list refresh got its answer, or the watch
   * brought a run's new snapshot. The caller marks the connection good, since after a failure
   * nothing else may be redrawn to say so.
   */
  readonly answered$ = this.#answered.asObservable();

  constructor(store: RunsStore, loader: RunsLoader, options: LiveRunsOptions) {
    this.#store = store;
    this.#loader = loader;
    this.#options = options;
  }

  /**
   * Live updates while `visible$` is true and `api$` has a service; subscribe
   * once, for the extension's lifetime. Emits nothing; it only fills the store.
   */
  run$(api$: Observable<RunsApi | undefined>, visible$: Observable<boolean>): Observable<never> {
    return combineLatest([api$, visible$.pipe(distinctUntilChanged())]).pipe(
      switchMap(([api, visible]) => (api && visible ? merge(this.#watch$(api), this.#refresh$(api)) : EMPTY)),
    );
  }

  /** New options, used from the next subscription of {@link run$}. */
  configure(options: LiveRunsOptions): void {
    this.#options = options;
  }

  /** Asks for a list refresh now (say, after a command changed runs). */
  refreshSoon(): void {
    this.#refreshNow.next();
  }

  #watch$(api: RunsApi): Observable<never> {
    return defer(() => {
      const watchSet = new WatchSet();
      const retry = new Subject<void>();
      return merge(this.#store.changes$, retry).pipe(
        startWith(undefined),
        map(() => watchSet.plan(this.#store.inFlightIds(), (id) => this.#store.get(id) !== undefined)),
        // Store changes come in bursts (one per snapshot); most leave the plan as it is.
        filter((plan) => plan.kind !== 'keep'),
        switchMap((plan) => {
          if (plan.kind !== 'restart') return EMPTY;
          return api.watchMany(plan.ids).pipe(
            tap((run) => {
              // A new snapshot is a fresh answer of the service (one replayed from the watch's cache changes
              // nothing): the view's line stops saying the connection was lost as soon as the runs move
              // again after an outage, not at the next list refresh, up to refreshMs later.
              if (this.#store.applySnapshot(run)) this.#answered.next();
            }),
            catchError((error: unknown) => {
              this.#failures.next({ source: 'watch', error });
              watchSet.reset();
              // A run deleted elsewhere answers 404: the list refresh drops it before the watch restarts.
              this.refreshSoon();
              return timer(this.#options.retryMs, this.#options.scheduler ?? asyncScheduler).pipe(
                tap(() => retry.next()),
              );
            }),
          );
        }),
        ignoreElements(),
      );
    });
  }

  #refresh$(api: RunsApi): Observable<never> {
    const scheduler = this.#options.scheduler ?? asyncScheduler;
    return defer(() => {
      // Seen before (the view was hidden, or the list was loaded by the tree): catch up at once.
      const first = this.#store.listState.state === 'loaded' ? 0 : this.#options.refreshMs;
      return merge(timer(first, this.#options.refreshMs, scheduler), this.#refreshNow).pipe(
        exhaustMap(() =>
          from(api.list({ ...this.#store.filter, limit: this.#options.refreshPageSize })).pipe(
            switchMap((page) => {
              this.#answered.next();
              // The view's listing failed (the service was down, or refused the key): list again now
              // that it answers; the tree does not retry a failed listing on its own.
              if (this.#store.listState.state === 'error') return from(this.#loader.loadFirstPage());
              if (this.#store.listState.state !== 'loaded') return EMPTY;
              if (this.#store.mergeLatest(page)) return EMPTY;
              // More new runs than one small page holds: list the first page again.
              return from(this.#loader.loadFirstPage());
            }),
            catchError((error: unknown) => {
              this.#failures.next({ source: 'refresh', error });
              return EMPTY;
            }),
          ),
        ),
        ignoreElements(),
      );
    });
  }
}
