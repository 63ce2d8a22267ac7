import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type BlobStore, checkBlobKey } from './blob-store.js';

/**
 * Blobs as files under one directory, which may be shared by every process
 * (a local disk for one machine, a network file system for several). Writes
 * are atomic: the body goes to a temporary file in the same folder, is
 * flushed, then renamed over the key, so a reader or a crash never sees half
 * a file.
 */
export class DirectoryBlobStore implements BlobStore {
  readonly description: string;

  constructor(private readonly root: string) {
    this.description = `directory ${root}`;
  }

  private path(key: string): string {
    return join(this.root, checkBlobKey(key));
  }

  async put(key: string, body: Buffer | string): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
    const file = await open(temporary, 'w');
    try {
      await file.writeFile(body);
      // Flushed before the rename, so a key that exists after a crash has its whole body.
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    // Prefixes are folders here (`runs/<run>/`): a key prefix ending elsewhere is not supported.
    if (!prefix.endsWith('/')) throw new Error(`blob prefix must end with "/": ${prefix}`);
    await rm(this.path(prefix), { recursive: true, force: true });
  }
}
