/**
 * Bytes that every process of a scale-out setup must reach (result contents,
 * screenshots), kept outside the database. Keys are `/`-separated paths of
 * ids the server makes (`runs/<run>/<result>/markdown`).
 */
export interface BlobStore {
  /** Stores `body` under `key`; a reader sees either the old body or the whole new one, never a part. */
  put(key: string, body: Buffer | string): Promise<void>;
  /** The body under `key`, or null. */
  get(key: string): Promise<Buffer | null>;
  /** Removes every blob whose key starts with `prefix` (a run's, a result's). */
  deletePrefix(prefix: string): Promise<void>;
  /** A short description for logs and the start banner (no secrets). */
  readonly description: string;
}

const KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_.-]+)*\/?$/;

/** Refuses a key that could leave the store's root (`..`, absolute, odd characters): keys are ours, so this is a bug. */
export function checkBlobKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`invalid blob key ${JSON.stringify(key)}`);
  }
  return key;
}
