import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Result } from '../runs/run-types.js';

/**
 * Where Save Results… puts the results' contents while it reads the list: a
 * file in a folder of its own under the system's temporary folder, each
 * content written (as JSON) as its page arrives and read back, by offset,
 * when its record is written. So a crawl of thousands of pages holds one
 * page of contents at a time (a results page holds at most 8 Mi characters
 * of it), not all of them, while the results are put in the order of the
 * URLs given. {@link dispose} removes the folder.
 *
 * @example
 * ```ts
 * const spill = new ContentSpill();
 * const kept = spill.keep(page.data); // the results without their content
 * spill.contentOf(kept[0]!); // '# Title…'
 * spill.dispose();
 * ```
 */
export class ContentSpill {
  /** The folder of the spill, also where a file is put together before it is copied to its place. */
  readonly folder: string;
  readonly #fd: number;
  readonly #where = new Map<string, { offset: number; length: number }>();
  #size = 0;

  constructor(parent = tmpdir()) {
    this.folder = mkdtempSync(join(parent, 'webdata-save-'));
    this.#fd = openSync(join(this.folder, 'contents'), 'w+');
  }

  /** Writes the page's contents to the file; answers its results without them. */
  keep(page: readonly Result[]): Result[] {
    return page.map((result) => {
      const { content, ...rest } = result;
      if (content === undefined || content === null) return rest;
      const bytes = Buffer.from(JSON.stringify(content), 'utf8');
      writeSync(this.#fd, bytes, 0, bytes.length, this.#size);
      this.#where.set(result.id, { offset: this.#size, length: bytes.length });
      this.#size += bytes.length;
      return rest;
    });
  }

  /** A result's content, read back from the file (`undefined` when it had none). */
  contentOf(result: Pick<Result, 'id'>): unknown {
    const where = this.#where.get(result.id);
    if (!where) return undefined;
    const bytes = Buffer.alloc(where.length);
    let read = 0;
    while (read < where.length) {
      const n = readSync(this.#fd, bytes, read, where.length - read, where.offset + read);
      if (n === 0) throw new Error(`the contents file ended before result ${result.id}'s content`);
      read += n;
    }
    return JSON.parse(bytes.toString('utf8'));
  }

  /** Bytes of content written so far (for tests and the log). */
  get size(): number {
    return this.#size;
  }

  dispose(): void {
    try {
      closeSync(this.#fd);
    } finally {
      rmSync(this.folder, { recursive: true, force: true });
    }
  }
}
