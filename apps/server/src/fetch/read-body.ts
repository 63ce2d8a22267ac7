import type { ReadableStream } from 'node:stream/web';
import { PageError } from '../errors.js';

/** What to do when a body is longer than the cap. */
export type OverflowPolicy = 'error' | 'truncate';

/**
 * Reads a response body up to `maxBytes`. Past the cap the stream is
 * cancelled (the rest is never downloaded) and either PageError `too_large`
 * is thrown or the first `maxBytes` are returned (`truncate`, for robots.txt).
 */
export async function readBodyCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  overflow: OverflowPolicy = 'error',
): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.byteLength > maxBytes) {
        if (overflow === 'truncate') {
          chunks.push(value.subarray(0, maxBytes - total));
          total = maxBytes;
          break;
        }
        throw new PageError('too_large', `body larger than the ${maxBytes}-byte download limit`);
      }
      chunks.push(value);
      total += value.byteLength;
    }
  } finally {
    // Stops the download when we left early; a no-op on a finished stream.
    reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks, total);
}

/** Throws PageError `too_large` when a declared Content-Length is over the cap. */
export function checkDeclaredLength(header: string | null, maxBytes: number): void {
  if (header === null) return;
  const length = Number(header);
  if (Number.isFinite(length) && length > maxBytes) {
    throw new PageError('too_large', `Content-Length ${length} is over the ${maxBytes}-byte download limit`);
  }
}
