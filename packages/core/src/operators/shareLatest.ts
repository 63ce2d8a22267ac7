import { type MonoTypeOperatorFunction, ReplaySubject, share } from 'rxjs';

/**
 * Shares one subscription to the source among every subscriber, replays the
 * latest value to late subscribers, and counts references: the source is
 * unsubscribed (polling stops, the in-flight request is aborted) when the
 * last subscriber leaves, and started afresh by the next one. A view, a
 * progress bar and a results stream watching one run so make one request stream.
 *
 * @example
 * ```ts
 * import { shareLatest } from '@webdata/core';
 *
 * const run$ = poll$.pipe(shareLatest());
 * run$.subscribe(renderTree);
 * run$.subscribe(renderProgress); // no second poller
 * ```
 */
export function shareLatest<T>(): MonoTypeOperatorFunction<T> {
  return share<T>({
    connector: () => new ReplaySubject<T>(1),
    resetOnError: true,
    resetOnComplete: true,
    resetOnRefCountZero: true,
  });
}
