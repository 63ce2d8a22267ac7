import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from './blob-store.js';
import { DirectoryBlobStore } from './directory-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

/** s3rver's built-in credentials: it checks every request's AWS Signature V4 against them. */
const S3RVER_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const scratch = mkdtempSync(join(tmpdir(), 'webdata-blobs-'));
let s3: S3rver;
let s3Endpoint = '';
beforeAll(async () => {
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: join(scratch, 's3rver'),
    configureBuckets: [{ name: 'webdata', configs: [] }],
  });
  const { port } = await s3.run();
  s3Endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await s3?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Both kinds of blob store pass the same contract. */
const kinds: [string, () => BlobStore][] = [
  ['directory', () => new DirectoryBlobStore(mkdtempSync(join(scratch, 'dir-')))],
  [
    'S3-compatible bucket (s3rver on 127.0.0.1)',
    () =>
      new S3BlobStore({
        endpoint: s3Endpoint,
        bucket: 'webdata',
        prefix: `p${Math.random().toString(36).slice(2)}`,
        ...S3RVER_KEY,
      }),
  ],
];

describe.each(kinds)('BlobStore: %s', (_name, make) => {
  it('returns what was put, as bytes, and null for a missing key', async () => {
    const blobs = make();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 13, 10]);
    await blobs.put('runs/run_1/res_1/screenshot.png', png);
    await blobs.put('runs/run_1/res_1/markdown', '# Titre — ünïcödé ✓');
    expect(await blobs.get('runs/run_1/res_1/screenshot.png')).toEqual(png);
    expect((await blobs.get('runs/run_1/res_1/markdown'))?.toString('utf8')).toBe('# Titre — ünïcödé ✓');
    expect(await blobs.get('runs/run_1/res_2/markdown')).toBeNull();
  });

  it('deletes one prefix and keeps the others', async () => {
    const blobs = make();
    for (const run of ['run_a', 'run_b']) {
      for (const result of ['res_1', 'res_2'])
        await blobs.put(`runs/${run}/${result}/text`, `${run} ${result}`);
    }
    await blobs.deletePrefix('runs/run_a/');
    expect(await blobs.get('runs/run_a/res_1/text')).toBeNull();
    expect(await blobs.get('runs/run_a/res_2/text')).toBeNull();
    expect((await blobs.get('runs/run_b/res_2/text'))?.toString()).toBe('run_b res_2');
    await blobs.deletePrefix('runs/run_none/');
  });

  it('refuses keys that could leave its root', async () => {
    const blobs = make();
    for (const key of ['../etc/passwd', '/abs', 'runs/../../x', 'runs/a b', 'runs//x', '']) {
      await expect(blobs.put(key, 'x')).rejects.toThrow(/invalid blob key/);
    }
  });
});

describe('DirectoryBlobStore', () => {
  // An S3 PUT is atomic by the protocol; s3rver writes objects in place, so it cannot show it.
  it('replaces a blob whole: a reader during a rewrite sees the old body or the new one', async () => {
    const blobs = new DirectoryBlobStore(mkdtempSync(join(scratch, 'dir-')));
    const a = Buffer.alloc(256 * 1024, 'a');
    const b = Buffer.alloc(384 * 1024, 'b');
    await blobs.put('runs/r/x/html', a);
    const seen = new Set<string>();
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const body = await blobs.get('runs/r/x/html');
        seen.add(body === null ? 'missing' : body.equals(a) ? 'old' : body.equals(b) ? 'new' : 'torn');
      }
    })();
    for (let i = 0; i < 6; i++) await blobs.put('runs/r/x/html', i % 2 === 0 ? b : a);
    writing = false;
    await reader;
    expect([...seen].filter((kind) => kind !== 'old' && kind !== 'new')).toEqual([]);
    expect(await blobs.get('runs/r/x/html')).toEqual(a);
  });

  it('leaves no partial file behind', async () => {
    const root = mkdtempSync(join(scratch, 'dir-'));
    const blobs = new DirectoryBlobStore(root);
    await Promise.all(Array.from({ length: 20 }, (_, i) => blobs.put('runs/r/s/markdown', `body ${i}`)));
    expect(readdirSync(join(root, 'runs/r/s'))).toEqual(['markdown']);
  });
});

describe('S3BlobStore', () => {
  it('is refused by the server with credentials it does not know', async () => {
    // s3rver checks the signed request's access key (it does not recompute V4 signatures).
    const blobs = new S3BlobStore({
      endpoint: s3Endpoint,
      bucket: 'webdata',
      accessKeyId: 'NOBODY',
      secretAccessKey: 'wrong',
    });
    await expect(blobs.put('runs/r/s/text', 'x')).rejects.toThrow(
      /S3 refused PUT runs\/r\/s\/text: 403 InvalidAccessKeyId/,
    );
  });

  it('answers unavailable (503 with Retry-After) when the server cannot be reached', async () => {
    const closed = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: join(scratch, 'gone'),
    });
    const { port } = await closed.run();
    await closed.close();
    const blobs = new S3BlobStore({ endpoint: `http://127.0.0.1:${port}`, bucket: 'webdata', ...S3RVER_KEY });
    await expect(blobs.get('runs/r/s/text')).rejects.toMatchObject({
      code: 'unavailable',
      status: 503,
      retryAfterSeconds: 1,
    });
  });
});
