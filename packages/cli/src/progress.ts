import type { Writable } from 'node:stream';
import type { RunEvent, RunLenient } from '@webdata/core';
import { Presets, SingleBar } from 'cli-progress';
import { finalize, type MonoTypeOperatorFunction, tap } from 'rxjs';

/**
 * A live progress bar on `stream` (stderr) driven by a run's status stream:
 * pages done out of pages known (a deep crawl's total grows as it discovers
 * pages), and the run's status. Drawn only on a terminal unless `force`
 * (`--progress`), and stopped when the stream ends however it ends.
 */
export function runProgress<E extends RunEvent<unknown>>(
  stream: Writable,
  options: { enabled: boolean; force: boolean; label: string },
): MonoTypeOperatorFunction<E> {
  if (!options.enabled) return (source) => source;
  return (source) => {
    let bar: SingleBar | undefined;
    const show = (run: RunLenient) => {
      const done = (run.stats?.succeeded ?? 0) + (run.stats?.failed ?? 0) + (run.stats?.cancelled ?? 0);
      const total = Math.max(run.stats?.total ?? 0, done, 1);
      const payload = { status: run.status, label: options.label };
      if (!bar) {
        bar = new SingleBar(
          {
            stream,
            format: '{label} [{bar}] {value}/{total} pages | {status}',
            barsize: 30,
            hideCursor: false,
            noTTYOutput: options.force,
            notTTYSchedule: 250,
            clearOnComplete: false,
          },
          Presets.shades_classic,
        );
        bar.start(total, done, payload);
      } else {
        bar.setTotal(total);
        bar.update(done, payload);
      }
    };
    return source.pipe(
      tap((event) => {
        if (event.type === 'created' || event.type === 'status' || event.type === 'completed')
          show(event.run);
      }),
      finalize(() => bar?.stop()),
    );
  };
}
