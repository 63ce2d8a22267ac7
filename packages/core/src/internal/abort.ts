import { type MonoTypeOperatorFunction, Observable } from 'rxjs';
import { AbortError, TimeoutError, WebDataError } from '../errors.js';

/**
 * The error for a caller's aborted signal, with the signal's reason as its
 * `cause`. A signal that timed out (`AbortSignal.timeout()`, whose reason is a
 * `TimeoutError` DOMException, as `fetch` reports it) is a {@link TimeoutError},
 * so that one `instanceof TimeoutError` catches a slow answer whichever
 * time-out stopped it; any other reason is an {@link AbortError}.
 */
export function abortError(signal: AbortSignal): AbortError | TimeoutError {
  const reason: unknown = signal.reason;
  if ((reason as Error | undefined)?.name === 'TimeoutError') {
    return new TimeoutError("the operation timed out (the caller's signal)", { cause: reason });
  }
  return new AbortError('the operation was aborted', { cause: reason });
}

/**
 * Errors the stream with {@link abortError} when `signal` aborts, and
 * unsubscribes the source then (which aborts its in-flight request). A
 * signal aborted before subscription errors at once.
 */
export function abortWith<T>(signal: AbortSignal | undefined): MonoTypeOperatorFunction<T> {
  if (!signal) return (source) => source;
  return (source) =>
    new Observable<T>((subscriber) => {
      if (signal.aborted) {
        subscriber.error(abortError(signal));
        return;
      }
      const onAbort = () => subscriber.error(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      const inner = source.subscribe(subscriber);
      return () => {
        signal.removeEventListener('abort', onAbort);
        inner.unsubscribe();
      };
    });
}

/**
 * The last value of a stream as a promise; the caller's `signal` unsubscribes
 * (aborting the request) and rejects with {@link abortError}. The promise twin
 * of every one-shot observable call is built on this.
 */
export function lastValueAbortable<T>(source: Observable<T>, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let last: { value: T } | undefined;
    source.pipe(abortWith(signal)).subscribe({
      next: (value) => {
        last = { value };
      },
      error: reject,
      complete: () =>
        last
          ? resolve(last.value)
          : reject(new WebDataError('the stream completed without a value', { code: 'stream_ended' })),
    });
  });
}
