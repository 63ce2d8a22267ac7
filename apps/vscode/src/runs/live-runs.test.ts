import { BehaviorSubject, Observable, type Subscriber } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { finished, makeRun } from '../test-support/runs.js';
import { LiveRuns, type LiveRunsFailure } from './live-runs.js';
import type { Run } from './run-types.js';
import type { RunsApi } from './runs-api.js';
import { RunsLoader } from './runs-loader.js';
import { RunsStore } from './runs-store.js';

/** What the view asked of the service, and a hand on the watch streams it opened. */
class RecordingApi implements RunsApi {
  serverRuns: Run[] = [];
  lists: { limit?: number; cursor?: string }[] = [];
  /** While set, every list request fails with it (the service down, the key refused). */
  failWith: Error | undefined;
  watches: { ids: string[]; subscriber: Subscriber<Run>; closed: boolean }[] = [];

  async list(query: { limit?: number; cursor?: string }) {
    this.lists.push(query);
    if (this.failWith) throw this.failWith;
    const start = query.cursor ? Number(query.cursor) : 0;
    const end = start + (query.limit ?? 50);
    return {
      data: this.serverRuns.slice(start, end),
      next_cursor: end < this.serverRuns.length ? String(end) : null,
    };
  }

  watchMany(ids: readonly string[]) {
    return new Observable<Run>((subscriber) => {
      const watch = { ids: [...ids], subscriber, closed: false };
      this.watches.push(watch);
      return () => {
        watch.closed = true;
      };
    });
  }

  async resultsPage() {
    return { data: [], next_cursor: null };
  }

  get openWatches() {
    return this.watches.filter((watch) => !watch.closed);
  }
}

const REFRESH_MS = 10_000;

function setup(serverRuns: Run[]) {
  const api = new RecordingApi();
  api.serverRuns = serverRuns;
  const store = new RunsStore();
  const loader = new RunsLoader(store, 50);
  loader.setApi(api);
  const live = new LiveRuns(store, loader, { refreshMs: REFRESH_MS, refreshPageSize: 20, retryMs: 5_000 });
  const failures: LiveRunsFailure[] = [];
  live.failures$.subscribe((failure) => failures.push(failure));
  const visible$ = new BehaviorSubject(true);
  const api$ = new BehaviorSubject<RunsApi | undefined>(api);
  const subscription = live.run$(api$, visible$).subscribe();
  return { api, store, loader, live, visible$, api$, failures, subscription };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('LiveRuns', () => {
  it('watches the runs in flight in one stream while visible, and asks nothing while hidden', async () => {
    const { api, store, loader, visible$, subscription } = setup([
      makeRun('run_3'),
      finished(makeRun('run_2')),
      makeRun('run_1', { status: 'queued' }),
    ]);
    await loader.loadFirstPage();
    expect(api.openWatches.map((watch) => watch.ids)).toEqual([['run_3', 'run_1']]);

    visible$.next(false);
    expect(api.openWatches).toEqual([]);
    const requests = api.lists.length + api.watches.length;
    await vi.advanceTimersByTimeAsync(10 * REFRESH_MS);
    expect(api.lists.length + api.watches.length).toBe(requests);

    // Back in sight: the list is refreshed at once (it may have changed meanwhile) and the watch resumes.
    visible$.next(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(api.lists).toHaveLength(2);
    expect(api.openWatches.map((watch) => watch.ids)).toEqual([['run_3', 'run_1']]);
    expect(store.inFlightIds()).toEqual(['run_3', 'run_1']);
    subscription.unsubscribe();
    expect(api.openWatches).toEqual([]);
  });

  it('feeds snapshots into the store and keeps one stream as runs end', async () => {
    const { api, store, loader } = setup([makeRun('run_2'), makeRun('run_1')]);
    await loader.loadFirstPage();
    const [watch] = api.openWatches;
    watch!.subscriber.next(finished(makeRun('run_1')));
    expect(store.get('run_1')?.status).toBe('completed');
    expect(store.inFlightIds()).toEqual(['run_2']);
    expect(api.watches).toHaveLength(1);
    watch!.subscriber.next(finished(makeRun('run_2'), 'incomplete'));
    watch!.subscriber.complete();
    expect(store.inFlightIds()).toEqual([]);
    expect(api.watches).toHaveLength(1);
  });

  it('finds runs started elsewhere with a small list refresh and watches them too', async () => {
    const { api, store, loader } = setup([finished(makeRun('run_1'))]);
    await loader.loadFirstPage();
    expect(api.watches).toEqual([]);
    api.serverRuns = [makeRun('run_2'), ...api.serverRuns];
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(api.lists.at(-1)).toEqual({ limit: 20 });
    expect(store.runs.map((run) => run.id)).toEqual(['run_2', 'run_1']);
    expect(api.openWatches.map((watch) => watch.ids)).toEqual([['run_2']]);
  });

  it('reloads the first page when more new runs arrived than the refresh holds', async () => {
    const { api, store, loader } = setup([finished(makeRun('run_old'))]);
    await loader.loadFirstPage();
    const burst = Array.from({ length: 30 }, (_, i) =>
      finished(makeRun(`run_new${String(29 - i).padStart(2, '0')}`)),
    );
    api.serverRuns = [...burst, ...api.serverRuns];
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(api.lists.map((query) => query.limit)).toEqual([50, 20, 50]);
    expect(store.runs).toHaveLength(31);
  });

  it('restarts the watch without a run deleted from the list', async () => {
    const { api, store, loader } = setup([makeRun('run_2'), makeRun('run_1')]);
    await loader.loadFirstPage();
    store.remove('run_1');
    expect(api.openWatches.map((watch) => watch.ids)).toEqual([['run_2']]);
    store.remove('run_2');
    expect(api.openWatches).toEqual([]);
  });

  it('reports a failed watch, refreshes the list and watches again after a pause', async () => {
    const { api, loader, failures } = setup([makeRun('run_2'), makeRun('run_1')]);
    await loader.loadFirstPage();
    // run_1 was deleted elsewhere: the batch read answers 404.
    api.serverRuns = [makeRun('run_2')];
    api.openWatches[0]!.subscriber.error(new Error('run run_1 not found'));
    expect(failures).toEqual([{ source: 'watch', error: new Error('run run_1 not found') }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(api.lists).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(api.openWatches.map((watch) => watch.ids)).toEqual([['run_2']]);
  });

  it('lists the runs again once the service answers after the first listing failed', async () => {
    const { api, store, loader, live, failures } = setup([makeRun('run_2'), finished(makeRun('run_1'))]);
    const answered: number[] = [];
    live.answered$.subscribe(() => answered.push(api.lists.length));
    api.failWith = new Error('connect ECONNREFUSED 127.0.0.1:8787');
    await expect(loader.loadFirstPage()).rejects.toThrow('ECONNREFUSED');
    expect(store.listState.state).toBe('error');
    // Still down: one list request a refresh, each a failure, and no answer.
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(api.lists).toHaveLength(2);
    expect(failures.map((failure) => failure.source)).toEqual(['refresh']);
    expect(answered).toEqual([]);
    // Back: the refresh gets its answer, and the view's list is loaded whole (its page size).
    api.failWith = undefined;
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(answered).toEqual([3]);
    expect(api.lists.map((query) => query.limit)).toEqual([50, 20, 20, 50]);
    expect(store.listState.state).toBe('loaded');
    expect(store.runs.map((run) => run.id)).toEqual(['run_2', 'run_1']);
    expect(api.openWatches.map((watch) => watch.ids)).toEqual([['run_2']]);
  });

  it('says the service answers again as soon as the watch brings a new snapshot, not at the next refresh', async () => {
    const { api, loader, live, failures } = setup([makeRun('run_1')]);
    let answered = 0;
    live.answered$.subscribe(() => {
      answered += 1;
    });
    await loader.loadFirstPage();
    // The service restarts: the list refresh fails while the watch rides the outage out.
    api.failWith = new Error('connect ECONNREFUSED 127.0.0.1:8787');
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(failures.map((failure) => failure.source)).toEqual(['refresh']);
    expect(answered).toBe(0);
    api.failWith = undefined;
    const [watch] = api.openWatches;
    // The same snapshot again (a late subscriber's replay) proves nothing; a changed one does.
    watch!.subscriber.next(makeRun('run_1'));
    expect(answered).toBe(0);
    watch!.subscriber.next(
      makeRun('run_1', { stats: { total: 3, queued: 1, running: 1, succeeded: 1, failed: 0, cancelled: 0 } }),
    );
    expect(answered).toBe(1);
  });

  it('stops everything when the connection goes, and starts again on a new one', async () => {
    const { api, loader, api$ } = setup([makeRun('run_1')]);
    await loader.loadFirstPage();
    api$.next(undefined);
    expect(api.openWatches).toEqual([]);
    await vi.advanceTimersByTimeAsync(3 * REFRESH_MS);
    expect(api.lists).toHaveLength(1);
    api$.next(api);
    await vi.advanceTimersByTimeAsync(0);
    expect(api.openWatches).toHaveLength(1);
  });
});
