import { type MonoTypeOperatorFunction, Observable } from 'rxjs';
import { AbortError, WebDataError } from '../errors.js';

/**
 * Errors the stream with an {@link AbortError} when `signal` aborts, and
 * unsubscribes the source then (which aborts its in-flight request). A
 * signal aborted before subscription errors at once.
 */
export function abortWith<T>(signal: AbortSignal | undefined): MonoTypeOperatorFunction<T> {
  if (!signal) return (source) => source;
  return (source) =>
    new Observable<T>((subscriber) => {
      if (signal.aborted) {
        subscriber.error(new AbortError('the operation was aborted'));
        return;
      }
      const onAbort = () => subscriber.error(new AbortError('the operation was aborted'));
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
 * (aborting the request) and rejects with {@link AbortError}. The promise twin
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
        last ? resolve(last.value) : reject(new WebDataError('the stream completed without a value')),
    });
  });
}
