import { join } from 'node:path';
import type { ServerConfig } from '../config.js';
import type { BlobStore } from './blobs/blob-store.js';
import { DirectoryBlobStore } from './blobs/directory-blob-store.js';
import { S3BlobStore } from './blobs/s3-blob-store.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

/** The embedded store's file in the data directory. */
export const SQLITE_FILE = 'webdata.sqlite';

/** The blob store a PostgreSQL setup shares between its processes. */
export function openBlobStore(config: ServerConfig): BlobStore {
  const blobs = config.blobs ?? { kind: 'directory', path: join(config.dataDir, 'blobs') };
  return blobs.kind === 's3' ? new S3BlobStore(blobs) : new DirectoryBlobStore(blobs.path);
}

/**
 * The store `config` asks for: PostgreSQL (with its blob store) when a
 * database URL is set, else the embedded SQLite file in the data directory.
 */
export function openStore(config: ServerConfig, onError?: (error: Error) => void): Store {
  if (config.databaseUrl) {
    return new PostgresStore({
      url: config.databaseUrl,
      blobs: openBlobStore(config),
      poolSize: config.databasePoolSize,
      onError,
    });
  }
  return new SqliteStore(join(config.dataDir, SQLITE_FILE), {
    searchMirrorBytes: config.searchMemoryMb * 1024 * 1024,
  });
}
