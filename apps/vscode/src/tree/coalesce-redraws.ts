import {
  asyncScheduler,
  Observable,
  type OperatorFunction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';

/**
 * VS Code's extension host debounces a tree's `onDidChangeTreeData` by
 * 200 ms and starts the wait again at every event: a provider that fires
 * more often than that is not redrawn until it pauses. Spacing the redraws a
 * little wider than that keeps each one drawn at once.
 */
export const TREE_REDRAW_SPACING_MS = 250;

/**
 * Gathers redraw requests of a tree (a node, or `undefined` for the whole
 * tree) so that they go out at most once every `spacingMs`: the first at
 * once, the ones that come during the next `spacingMs` together at its end
 * (the nodes each once, or `undefined` when the whole tree was asked for),
 * and so on while they keep coming.
 *
 * Why: a crawl of hundreds of pages changes its run's snapshot every 200 ms
 * or less. Fired one by one, those changes never left VS Code's debounce
 * (see {@link TREE_REDRAW_SPACING_MS}): the run's row stood still for
 * seconds at a time (161/526 for 4.6 s while its progress notification went
 * from 176 to 331) and moved only when the crawl paused.
 *
 * @example
 * ```ts
 * model.changes$.pipe(coalesceRedraws(TREE_REDRAW_SPACING_MS)).subscribe((nodes) => emitter.fire(nodes));
 * ```
 */
export function coalesceRedraws<T>(
  spacingMs: number,
  scheduler: SchedulerLike = asyncScheduler,
): OperatorFunction<T | undefined, T[] | undefined> {
  return (source) =>
    new Observable<T[] | undefined>((subscriber) => {
      /** Asked for since the last redraw went out: nodes, or 'all'. */
      let pending: Set<T> | 'all' | undefined;
      /** Running while a redraw went out less than `spacingMs` ago. */
      let spacing: Subscription | undefined;
      const send = (asked: Set<T> | 'all') => subscriber.next(asked === 'all' ? undefined : [...asked]);
      const startSpacing = () => {
        spacing = scheduler.schedule(() => {
          spacing = undefined;
          if (pending === undefined) return;
          const asked = pending;
          pending = undefined;
          startSpacing();
          send(asked);
        }, spacingMs);
      };
      const subscription = source.subscribe({
        next: (node) => {
          if (node === undefined) pending = 'all';
          else if (pending !== 'all') {
            pending ??= new Set();
            pending.add(node);
          }
          if (spacing) return;
          const asked = pending;
          pending = undefined;
          startSpacing();
          send(asked);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          if (pending !== undefined) send(pending);
          subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        spacing?.unsubscribe();
      };
    });
}
