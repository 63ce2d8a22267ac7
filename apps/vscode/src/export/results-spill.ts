import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inputRank } from '@webdata/core';
import type { Result } from '../runs/run-types.js';
import { CsvColumns } from './results-file.js';

/**
 * Where Save Results… puts the results while it reads the list: each page's
 * records (every field, and the content when the file carries it) written
 * to a file of a folder of its own under the system's temporary folder as
 * the page arrives, then read back one at a time, in the order of the URLs
 * given (the service lists them in the order they finished), as the file is
 * written. So a run of any size holds one page of results at a time (a page
 * holds at most 200 results and 8 Mi characters of content), plus, for
 * each result, where its record is and its place, and for a CSV the columns
 * seen. {@link dispose} removes the folder.
 *
 * @example
 * ```ts
 * const spill = new ResultsSpill({ urls: run.urls, withContent: false });
 * spill.keep(page.data);
 * for (const result of spill.ordered()) write(result);
 * spill.dispose();
 * ```
 */
export class ResultsSpill {
  /** The spill's folder, also where a file is put together before it is copied to its place. */
  readonly folder: string;
  readonly #fd: number;
  readonly #withContent: boolean;
  /** A result's place by its URL, as `inInputOrder` orders them (a page a crawl found after the given). */
  readonly #rank: (url: string | undefined) => number;
  readonly #offsets: number[] = [];
  readonly #lengths: number[] = [];
  readonly #ranks: number[] = [];
  readonly #columns: CsvColumns | undefined;
  #size = 0;

  constructor(options: {
    /** The run's URLs, in the order given. */
    urls: readonly string[] | undefined;
    /** Each record has a `content` field (null when none), last: the file carries the pages' contents. */
    withContent: boolean;
    /** Gather the columns of a CSV. */
    csv?: boolean;
    parent?: string;
  }) {
    this.folder = mkdtempSync(join(options.parent ?? tmpdir(), 'webdata-save-'));
    this.#fd = openSync(join(this.folder, 'records'), 'w+');
    this.#withContent = options.withContent;
    this.#rank = inputRank(options.urls);
    this.#columns = options.csv ? new CsvColumns() : undefined;
  }

  /** Writes a page's records to the file, in one write; nothing of them is kept but where each is. */
  keep(page: readonly Result[]): void {
    const buffers: Buffer[] = [];
    let length = 0;
    for (const result of page) {
      const record = this.#record(result);
      const rank = this.#rank(result.url ?? undefined);
      const bytes = Buffer.from(JSON.stringify(record), 'utf8');
      // Its place in the file: by its URL's, then in the order the service listed it (a stable sort).
      this.#columns?.see(record, rank, this.#ranks.length);
      this.#offsets.push(this.#size + length);
      this.#lengths.push(bytes.length);
      this.#ranks.push(rank);
      buffers.push(bytes);
      length += bytes.length;
    }
    const bytes = Buffer.concat(buffers, length);
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(this.#fd, bytes, written, bytes.length - written, this.#size + written);
    }
    this.#size += bytes.length;
  }

  /** Results kept so far. */
  get count(): number {
    return this.#ranks.length;
  }

  /** Bytes of records written so far (for tests and the log). */
  get size(): number {
    return this.#size;
  }

  /** The columns of a CSV of the results kept, in the order they first appear in {@link ordered}. */
  csvColumns(): string[] {
    if (!this.#columns) throw new Error('the spill was not asked to gather CSV columns');
    return this.#columns.columns(this.#withContent);
  }

  /** The results kept, in the order of the URLs given (found pages last, as listed), read back one at a time. */
  *ordered(): Generator<Result> {
    const ranks = this.#ranks;
    const order = Array.from(ranks.keys()).sort((a, b) => ranks[a]! - ranks[b]! || a - b);
    for (const index of order) yield this.#read(index);
  }

  dispose(): void {
    try {
      closeSync(this.#fd);
    } finally {
      rmSync(this.folder, { recursive: true, force: true });
    }
  }

  /** A result as the file carries it: as the service sent it, or with its content last (null when none). */
  #record(result: Result): Result {
    if (!this.#withContent) return result;
    const { content, ...rest } = result;
    return { ...rest, content: content ?? null };
  }

  #read(index: number): Result {
    const length = this.#lengths[index]!;
    const offset = this.#offsets[index]!;
    const bytes = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const n = readSync(this.#fd, bytes, read, length - read, offset + read);
      if (n === 0) throw new Error(`the records file ended before record ${index}`);
      read += n;
    }
    return JSON.parse(bytes.toString('utf8')) as Result;
  }
}
