import { asyncScheduler, type MonoTypeOperatorFunction, Observable, type SchedulerLike } from 'rxjs';

/**
 * Errors the stream with `makeError()` when it has not completed within `ms`
 * of being subscribed to; unsubscribes the source then (which aborts its
 * in-flight request). Unlike rxjs `timeout`, the clock is overall, not
 * per value: a run that keeps changing still has to finish in time.
 *
 * @example
 * ```ts
 * import { deadline, RunTimeoutError } from '@webdata/core';
 *
 * client.runs.watch(id).pipe(deadline(60_000, () => new RunTimeoutError(id, 60_000)));
 * ```
 */
export function deadline<T>(
  ms: number,
  makeError: () => unknown,
  scheduler: SchedulerLike = asyncScheduler,
): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const inner = source.subscribe(subscriber);
      // Erroring the subscriber tears this subscription down, which unsubscribes the source.
      const timer = scheduler.schedule(() => subscriber.error(makeError()), ms);
      return () => {
        timer.unsubscribe();
        inner.unsubscribe();
      };
    });
}
