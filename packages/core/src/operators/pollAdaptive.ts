import {
  asyncScheduler,
  BehaviorSubject,
  defer,
  exhaustMap,
  filter,
  finalize,
  from,
  map,
  type Observable,
  type ObservableInput,
  type SchedulerLike,
  switchMap,
  tap,
  timer,
} from 'rxjs';

/**
 * One answer of a poll request.
 *
 * @example
 * ```ts
 * const answer: PollAnswer<string> = { value: 'running', hintMs: 1_000 };
 * ```
 */
export interface PollAnswer<T> {
  /** The fresh value; absent when the server said "not modified" (304). */
  value?: T | undefined;
  /** The server's own hint for the next poll, in ms (`x-poll-after-ms`, `Retry-After`). */
  hintMs?: number | undefined;
  /** True when the server held the request open (long poll) before answering. */
  longPolled?: boolean | undefined;
  /** Ask again at once: the next request is a long poll, so the server does the waiting. */
  immediate?: boolean | undefined;
}

/**
 * How {@link pollAdaptive} spaces its requests.
 *
 * @example
 * ```ts
 * createClient({ baseUrl, apiKey, poll: { initialMs: 500, maxMs: 10_000, factor: 2 } });
 * ```
 */
export interface AdaptivePollPolicy {
  /** Delay after a change (and before the second request), in ms. */
  initialMs: number;
  /** Longest delay the backoff grows to while nothing changes. */
  maxMs: number;
  /** Growth of the delay per unchanged answer. */
  factor: number;
  /**
   * A long-polled answer that came back unchanged faster than this is not
   * trusted as a long poll (the server ignored `wait`): the normal backoff
   * applies instead, so a misbehaving server cannot make the client spin.
   */
  minLongPollMs?: number;
}

/**
 * Default schedule: 250 ms, then ×1.5 per unchanged answer, up to 5 s.
 *
 * @example
 * ```ts
 * pollAdaptive(request, { ...DEFAULT_POLL_POLICY, maxMs: 2_000 });
 * ```
 */
export const DEFAULT_POLL_POLICY: AdaptivePollPolicy = {
  initialMs: 250,
  maxMs: 5_000,
  factor: 1.5,
  minLongPollMs: 1_000,
};

/**
 * State of the adaptive schedule between two answers.
 *
 * @example
 * ```ts
 * let state: PollScheduleState = { intervalMs: 250, lastKey: undefined };
 * ```
 */
export interface PollScheduleState {
  intervalMs: number;
  lastKey: string | undefined;
}

/**
 * The delay before the next request, given the answer just read: back to
 * `initialMs` on a change, ×`factor` up to `maxMs` while nothing changes, and
 * never sooner than the server's hint (`x-poll-after-ms`, `Retry-After`).
 * After a genuine long poll it is 0: the server already waited for a change,
 * so the hint (meant for plain pollers) does not apply.
 *
 * @example
 * ```ts
 * const policy = { initialMs: 250, maxMs: 5_000, factor: 2 };
 * nextPollDelay({ intervalMs: 1_000, lastKey: 'a' }, policy, { changed: false, elapsedMs: 5 }).delayMs; // 2000
 * nextPollDelay({ intervalMs: 1_000, lastKey: 'a' }, policy, { changed: true, elapsedMs: 5 }).delayMs; // 250
 * ```
 */
export function nextPollDelay(
  state: PollScheduleState,
  policy: AdaptivePollPolicy,
  answer: {
    changed: boolean;
    hintMs?: number | undefined;
    longPolled?: boolean | undefined;
    immediate?: boolean | undefined;
    elapsedMs: number;
  },
): { delayMs: number; state: PollScheduleState } {
  const intervalMs = answer.changed
    ? policy.initialMs
    : Math.min(policy.maxMs, Math.max(policy.initialMs, state.intervalMs * policy.factor));
  // The server held the request until something changed (or its wait ran out): ask again at once.
  if (
    answer.immediate ||
    (answer.longPolled && (answer.changed || answer.elapsedMs >= (policy.minLongPollMs ?? 0)))
  ) {
    return { delayMs: 0, state: { ...state, intervalMs } };
  }
  // "Poll again after N ms" is a floor: never sooner than the server asked, later if backing off anyway.
  const hintMs =
    answer.hintMs !== undefined && Number.isFinite(answer.hintMs) && answer.hintMs > 0
      ? Math.min(answer.hintMs, 5 * 60_000)
      : 0;
  return { delayMs: Math.max(intervalMs, hintMs), state: { ...state, intervalMs } };
}

/**
 * Polls with `request` until unsubscribed, emitting every value it reads.
 * Never two requests at once: the next one is scheduled only when the
 * previous one finished, and `exhaustMap` drops any tick that would still
 * overlap. The spacing adapts ({@link nextPollDelay}); `key` decides what
 * counts as a change. Unsubscribing unsubscribes the in-flight request, which
 * for this client's HTTP observables aborts it.
 *
 * @example
 * ```ts
 * import { defer } from 'rxjs';
 * import { pollAdaptive } from '@webdata/core';
 *
 * const status$ = pollAdaptive(
 *   () => defer(async () => ({ value: await client.runs.get(id) })),
 *   { key: (run) => `${run.status}|${run.updated_at}` },
 * );
 * ```
 */
export function pollAdaptive<T>(
  request: () => ObservableInput<PollAnswer<T>>,
  options: Partial<AdaptivePollPolicy> & { key?: (value: T) => string; scheduler?: SchedulerLike } = {},
): Observable<T> {
  const policy: AdaptivePollPolicy = { ...DEFAULT_POLL_POLICY, ...options };
  const scheduler = options.scheduler ?? asyncScheduler;
  const key = options.key ?? ((value: T) => JSON.stringify(value));
  return defer(() => {
    let state: PollScheduleState = { intervalMs: policy.initialMs, lastKey: undefined };
    const delays = new BehaviorSubject<number>(0);
    let stopped = false;
    return delays.pipe(
      switchMap((delayMs) => timer(delayMs, scheduler)),
      exhaustMap(() => {
        const startedAt = scheduler.now();
        let nextDelay: number | undefined;
        return from(request()).pipe(
          tap((answer) => {
            let changed = false;
            if (answer.value !== undefined) {
              const valueKey = key(answer.value);
              changed = valueKey !== state.lastKey;
              state = { ...state, lastKey: valueKey };
            }
            const next = nextPollDelay(state, policy, {
              changed,
              hintMs: answer.hintMs,
              longPolled: answer.longPolled,
              immediate: answer.immediate,
              elapsedMs: scheduler.now() - startedAt,
            });
            state = next.state;
            nextDelay = next.delayMs;
          }),
          // Scheduled on teardown of the finished request, when exhaustMap is free again.
          finalize(() => {
            if (!stopped && nextDelay !== undefined) delays.next(nextDelay);
          }),
        );
      }),
      filter((answer): answer is PollAnswer<T> & { value: T } => answer.value !== undefined),
      map((answer) => answer.value),
      finalize(() => {
        stopped = true;
      }),
    );
  });
}
