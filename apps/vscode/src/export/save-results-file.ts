import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Result } from '../runs/run-types.js';
import { type CsvReport, type ResultsFormat, resultsFileChunks } from './results-file.js';
import { ResultsSpill } from './results-spill.js';

/** What a save wrote: how many results, and how many of a CSV's cells were cut to fit in Excel. */
export interface SavedFile {
  count: number;
  cutCells: number;
}

/** Hands each page of results, as it is read, to `keep`, and resolves once every page is read. */
export type ReadPages = (keep: (page: Result[]) => Promise<Result[]>) => Promise<unknown>;

/**
 * Writes every result of a run to the file at `target` in `format`, in the
 * order of the run's `urls`, holding one page of results at a time: each page
 * `read` hands over goes to a {@link ResultsSpill} as it arrives; once all
 * are read, the file is written a record at a time from the spill into a
 * file beside `target`, renamed to `target` at the end. So `target` is not
 * touched until every result is read and written (a cancelled or failed save
 * leaves it as it was), and neither the results nor the file's text is ever
 * held whole. `withContent`: each record carries the result's content.
 * Resolves with how many results were written and, in a CSV, how many cells
 * were cut to fit in Excel ({@link fitCell}).
 *
 * @example
 * ```ts
 * await saveResultsFile({
 *   read: (keep) => readAllResults(client.runs, run.id, { keep }),
 *   urls: run.urls, format: 'csv', withContent: false, target: '/home/me/lamps.csv',
 * });
 * ```
 */
export async function saveResultsFile(options: {
  read: ReadPages;
  urls: readonly string[] | undefined;
  format: ResultsFormat;
  withContent: boolean;
  target: string;
  /** Where the spill's folder goes (the system's temporary folder by default). */
  tmpParent?: string;
}): Promise<SavedFile> {
  const { format, withContent } = options;
  const spill = new ResultsSpill({
    urls: options.urls,
    withContent,
    csv: format === 'csv',
    ...(options.tmpParent ? { parent: options.tmpParent } : {}),
  });
  try {
    await options.read(async (page) => {
      spill.keep(page);
      return [];
    });
    const columns = format === 'csv' ? spill.csvColumns() : undefined;
    const report: CsvReport = { cutCells: 0 };
    await writeBeside(
      options.target,
      resultsFileChunks(
        spill.ordered(),
        format,
        withContent ? (result) => result.content : undefined,
        columns,
        report,
      ),
    );
    return { count: spill.count, cutCells: report.cutCells };
  } finally {
    spill.dispose();
  }
}

/**
 * Writes `chunks` to a new file beside `target` (`.name.1a2b3c4d.part`, in
 * writes of about a megabyte), then renames it to `target`, replacing what
 * was there in one step. On failure the partial file is removed, and
 * `target` is as it was.
 */
export async function writeBeside(target: string, chunks: Iterable<string>): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
  const file = await open(temp, 'wx');
  try {
    try {
      let pending: string[] = [];
      let length = 0;
      for (const chunk of chunks) {
        pending.push(chunk);
        length += chunk.length;
        if (length >= 1 << 20) {
          await file.write(pending.join(''), null, 'utf8');
          pending = [];
          length = 0;
        }
      }
      if (pending.length > 0) await file.write(pending.join(''), null, 'utf8');
    } finally {
      await file.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
