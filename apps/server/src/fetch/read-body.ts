import { pipeline, type Readable, Transform } from 'node:stream';
import {
  constants,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
  type Inflate,
  type InflateRaw,
} from 'node:zlib';
import { PageError } from '../errors.js';

/*
 * Why the codings are undone here and not by undici's `interceptors.decompress`
 * (checked against undici 7.30.2, the version installed, 2026-11-26): the
 * interceptor covers br, stacked codings (at most five, a plain Error past
 * that) and an unpacked-bytes cap (`maxSize`), but
 * - it reads `deflate` with zlib's `createInflate` only, from a fixed table
 *   that no option changes: a raw deflate body (RFC 1951 without the zlib
 *   wrapper, as some servers send it and browsers decode it) fails with
 *   `Z_DATA_ERROR` "incorrect header check";
 * - it decodes strictly: a gzip body without its 8-byte trailer fails with
 *   `Z_BUF_ERROR` "unexpected end of file", where browsers, curl and undici's
 *   own `fetch()` return the text;
 * - past `maxSize` it can only fail the response, while robots.txt is read
 *   truncated to its first 512 KiB (that one could be kept by counting here);
 * - its first use prints a process-wide `ExperimentalWarning`
 *   ("DecompressInterceptor is experimental and subject to change").
 * The first two are pinned by `page-fetcher.test.ts` (raw deflate, a gzip body
 * without its trailer).
 */

/** What to do when a body is longer than the cap. */
export type OverflowPolicy = 'error' | 'truncate';

/** More content codings than this on one response is refused (as undici's fetch does: CVE-2022-32206). */
const MAX_CONTENT_CODINGS = 5;

/** Lenient flushing, as browsers, curl and undici's fetch decode slightly broken compressed bodies. */
const ZLIB_OPTIONS = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_OPTIONS = {
  flush: constants.BROTLI_OPERATION_FLUSH,
  finishFlush: constants.BROTLI_OPERATION_FLUSH,
};

/**
 * `deflate` as servers send it: zlib-wrapped (as the RFC says) or raw (as
 * some servers do); the first byte tells which, as in undici's fetch.
 */
function createAnyInflate(): Transform {
  let inner: Inflate | InflateRaw | null = null;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!inner) {
        inner = (chunk[0]! & 0x0f) === 0x08 ? createInflate(ZLIB_OPTIONS) : createInflateRaw(ZLIB_OPTIONS);
        inner.on('data', (data: Buffer) => this.push(data));
        inner.on('error', (error) => this.destroy(error));
      }
      inner.write(chunk, () => done());
    },
    flush(done) {
      if (!inner) return done();
      inner.once('end', () => done());
      inner.end();
    },
  });
}

/**
 * The decoders for a `Content-Encoding` header, outermost coding last (as
 * undici's fetch reads it): gzip, deflate and br; none when a coding is
 * unknown (the body is then kept as sent).
 */
function decodersFor(contentEncoding: string | null): Transform[] {
  if (!contentEncoding) return [];
  const codings = contentEncoding.toLowerCase().split(',');
  if (codings.length > MAX_CONTENT_CODINGS) {
    throw new PageError('fetch_failed', `too many content codings (${codings.length})`);
  }
  const decoders: Transform[] = [];
  for (let i = codings.length - 1; i >= 0; i -= 1) {
    const coding = codings[i]!.trim();
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip(ZLIB_OPTIONS));
    else if (coding === 'deflate') decoders.push(createAnyInflate());
    else if (coding === 'br') decoders.push(createBrotliDecompress(BROTLI_OPTIONS));
    else if (coding !== 'identity') return [];
  }
  return decoders;
}

/**
 * Reads a response body (a Node stream, as undici's `dispatcher.request`
 * gives it) up to `maxBytes` after undoing its `Content-Encoding`. Past the
 * cap the stream is destroyed (the rest is never downloaded) and either
 * PageError `too_large` is thrown or the first `maxBytes` are returned
 * (`truncate`, for robots.txt). Chunks are gathered from `data` events into
 * one Buffer: no web stream, no per-chunk promise.
 */
export function readBodyCapped(
  body: Readable,
  contentEncoding: string | null,
  maxBytes: number,
  overflow: OverflowPolicy = 'error',
): Promise<Buffer> {
  let decoders: Transform[];
  try {
    decoders = decodersFor(contentEncoding);
  } catch (error) {
    dropBody(body);
    return Promise.reject(error);
  }
  const source: Readable =
    decoders.length === 0 ? body : (pipeline([body, ...decoders], () => {}) as unknown as Readable);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const settle = (error: unknown, bytes?: Buffer) => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      if (error) reject(error);
      else resolve(bytes!);
    };
    const onData = (chunk: Buffer) => {
      if (total + chunk.byteLength > maxBytes) {
        if (overflow === 'truncate') {
          chunks.push(chunk.subarray(0, maxBytes - total));
          total = maxBytes;
          settle(null, Buffer.concat(chunks, total));
        } else {
          settle(new PageError('too_large', `body larger than the ${maxBytes}-byte download limit`));
        }
        // Stops the download; with decoders, the pipeline destroys the body too.
        source.destroy();
        body.destroy();
        return;
      }
      chunks.push(chunk);
      total += chunk.byteLength;
    };
    // Destroying a stream emits an error; the first one settles, later ones are expected.
    body.on('error', () => {});
    source.on('error', () => {});
    source.on('data', onData);
    source.once('end', () => settle(null, Buffer.concat(chunks, total)));
    source.once('error', (error) => settle(error));
    // 'close' follows 'end' on every body: the error (its stack) is built only for a body that ended early.
    source.once('close', () => {
      if (!settled) settle(new PageError('fetch_failed', 'the response body ended early'));
    });
  });
}

/** Stops a body we will not read: the rest is not downloaded (destroying it emits an error, expected). */
export function dropBody(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** Throws PageError `too_large` when a declared Content-Length is over the cap. */
export function checkDeclaredLength(header: string | null, maxBytes: number): void {
  if (header === null) return;
  const length = Number(header);
  if (Number.isFinite(length) && length > maxBytes) {
    throw new PageError('too_large', `Content-Length ${length} is over the ${maxBytes}-byte download limit`);
  }
}
