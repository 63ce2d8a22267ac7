import type { Observable } from 'rxjs';
import { abortWith } from './internal/abort.js';

/**
 * A run stream (or any stream) as an `AsyncIterable`, for `for await` without
 * rxjs: every event in order, then the loop ends when the stream completes, or
 * throws the stream's error (`RunFailedError`, `RunTimeoutError`, …). Like the
 * stream it is cold: the run is created (or watched) when the loop starts. A
 * `break`, a `return` or a throw in the loop unsubscribes, which stops the
 * watching and, with `cancelOnUnsubscribe`, cancels the run; the caller's
 * `signal` does the same and throws `AbortError` (`TimeoutError` for
 * `AbortSignal.timeout()`). Events the loop has not reached yet are held in
 * order (a run's results are read page by page in any case).
 *
 * @example
 * ```ts
 * import { eachEvent } from '@webdata/core';
 *
 * for await (const event of eachEvent(client.crawl({ url: 'https://docs.example/', limit: 20 }))) {
 *   if (event.type === 'status') console.log(event.run.stats?.succeeded, '/', event.run.stats?.total);
 *   if (event.type === 'result') console.log(event.result.url);
 * }
 * ```
 */
export async function* eachEvent<E>(
  events$: Observable<E>,
  options: { signal?: AbortSignal | undefined } = {},
): AsyncGenerator<E, void, undefined> {
  const held: E[] = [];
  let next = 0;
  let ended: { error?: unknown; failed: boolean } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const subscription = events$.pipe(abortWith(options.signal)).subscribe({
    next: (event) => {
      held.push(event);
      notify();
    },
    error: (error: unknown) => {
      ended = { error, failed: true };
      notify();
    },
    complete: () => {
      ended = { failed: false };
      notify();
    },
  });
  try {
    for (;;) {
      if (next < held.length) {
        const event = held[next] as E;
        // Let go of what the loop has had (a long run holds many results).
        held[next] = undefined as E;
        next += 1;
        if (next === held.length) {
          held.length = 0;
          next = 0;
        }
        yield event;
      } else if (ended) {
        if (ended.failed) throw ended.error;
        return;
      } else {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    }
  } finally {
    subscription.unsubscribe();
  }
}
