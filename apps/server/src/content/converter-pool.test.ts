import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentWordIndex } from '../search/word-index.js';
import type { ConvertInput } from './convert-fetched.js';
import { ConverterPool } from './converter-pool.js';

// Counts conversions on this (the main) thread. Worker threads load their own copy of the module,
// which this mock does not reach: a page converted on a thread leaves the count alone.
const mainThread = vi.hoisted(() => ({ conversions: 0 }));
vi.mock('./convert-fetched.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./convert-fetched.js')>();
  return {
    ...actual,
    convertFetched: (page: ConvertInput) => {
      mainThread.conversions += 1;
      return actual.convertFetched(page);
    },
  };
});

let pool: ConverterPool | undefined;
afterEach(async () => pool?.close());

const html = (i: number) =>
  `<html><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1><p>Text of page ${i}.</p><a href="/next/${i}">next</a></main></body></html>`;

describe('ConverterPool', () => {
  it('converts on threads exactly as inline, in parallel, each answer to its page', async () => {
    pool = new ConverterPool(2);
    const inline = new ConverterPool(0);
    const pages = Array.from({ length: 20 }, (_, i) => ({
      kind: 'html' as const,
      body: html(i),
      finalUrl: `https://s.example/${i}`,
    }));
    mainThread.conversions = 0;
    const threaded = await Promise.all(pages.map((page) => pool!.convert(page)));
    // Every page went to a thread: none was converted here (a pool that fell back inline would be).
    expect(mainThread.conversions).toBe(0);
    for (const [i, page] of pages.entries()) {
      expect(threaded[i]).toEqual(await inline.convert(page));
      expect(threaded[i]?.title).toBe(`Page ${i}`);
      expect(threaded[i]?.links).toEqual([`https://s.example/next/${i}`]);
    }
    expect(mainThread.conversions).toBe(pages.length); // the inline pool's, for the comparison
  });

  it("builds a page's word index with it on the thread when the page is to be indexed, and moves it back", async () => {
    pool = new ConverterPool(1);
    await pool.start();
    mainThread.conversions = 0;
    const page = { kind: 'html' as const, body: html(4), finalUrl: 'https://s.example/4' };
    const indexed = await pool.convert({ ...page, words: true });
    expect(mainThread.conversions).toBe(0);
    // The index the store keeps for the page's text, byte for byte, in a buffer of its own.
    const words = indexed.words!;
    expect(Buffer.from(words)).toEqual(documentWordIndex(indexed.text));
    expect(words.byteLength).toBe(words.buffer.byteLength);
    // Not asked for (an extraction's page): none built.
    expect((await pool.convert(page)).words).toBeUndefined();
  });

  it('start() has every thread running with the converter loaded before the first page', async () => {
    pool = new ConverterPool(2);
    expect(pool.loadedThreads).toBe(0);
    await pool.start();
    expect(pool.loadedThreads).toBe(2);
    mainThread.conversions = 0;
    expect((await pool.convert({ kind: 'html', body: html(3), finalUrl: 'https://s.example/' })).title).toBe(
      'Page 3',
    );
    expect(mainThread.conversions).toBe(0);
    expect(pool.loadedThreads).toBe(2); // the page went to a started thread; none was added
  });

  it('converts text and JSON pages too, and keeps working after close (inline)', async () => {
    pool = new ConverterPool(1);
    mainThread.conversions = 0;
    expect(
      (await pool.convert({ kind: 'text', body: 'plain', finalUrl: 'https://s.example/a.txt' })).markdown,
    ).toBe('plain');
    expect(mainThread.conversions).toBe(0);
    await pool.close();
    expect((await pool.convert({ kind: 'html', body: html(1), finalUrl: 'https://s.example/' })).title).toBe(
      'Page 1',
    );
    expect(mainThread.conversions).toBe(1);
  });

  it('fails a page too large for its thread as too_large, and the page queued behind it goes to a new thread', async () => {
    pool = new ConverterPool(1);
    await pool.start();
    mainThread.conversions = 0;
    // 5.6 MB, 200,000 links: more than the thread's heap limits.
    const links = Array.from({ length: 200_000 }, (_, i) => `<a href="/l/${i}">l</a>`).join('');
    const huge = pool.convert({
      kind: 'html',
      body: `<html><body>${links}</body></html>`,
      finalUrl: 'https://s.example/',
    });
    const next = pool.convert({ kind: 'html', body: html(2), finalUrl: 'https://s.example/2' });
    await expect(huge).rejects.toMatchObject({ name: 'PageError', code: 'too_large' });
    expect((await next).title).toBe('Page 2');
    expect(mainThread.conversions).toBe(0);
  });

  it('decodes a body given as bytes on the thread, the bytes moved there (not copied) when it is idle', async () => {
    pool = new ConverterPool(1);
    await pool.start();
    mainThread.conversions = 0;
    const text = `<html><head><meta charset="iso-8859-1"><title>Señor</title></head><body><main><h1>Señor</h1><p>Crème brûlée à Noël.</p></main></body></html>`;
    const bytes = new Uint8Array(Buffer.from(text, 'latin1'));
    const converting = pool.convert({
      kind: 'html',
      body: { bytes, headerCharset: null },
      finalUrl: 'https://s.example/',
    });
    // Posted at once, and its buffer is the thread's now: this thread holds no copy.
    expect(bytes.byteLength).toBe(0);
    const inline = await new ConverterPool(0).convert({
      kind: 'html',
      body: text,
      finalUrl: 'https://s.example/',
    });
    expect(await converting).toEqual(inline);
    expect(inline.markdown).toContain('Crème brûlée à Noël.');
    expect(mainThread.conversions).toBe(1); // the inline pool's
  });

  it('copies the bytes of a page queued behind another (it may run again on a new thread) or sharing a buffer', async () => {
    pool = new ConverterPool(1);
    await pool.start();
    mainThread.conversions = 0;
    const links = Array.from({ length: 200_000 }, (_, i) => `<a href="/l/${i}">l</a>`).join('');
    const huge = pool.convert({
      kind: 'html',
      body: `<html><body>${links}</body></html>`,
      finalUrl: 'https://s.example/',
    });
    const queued = new Uint8Array(Buffer.from(html(2)));
    const next = pool.convert({
      kind: 'html',
      body: { bytes: queued, headerCharset: 'utf-8' },
      finalUrl: 'https://s.example/2',
    });
    expect(queued.byteLength).toBe(html(2).length);
    await expect(huge).rejects.toMatchObject({ name: 'PageError', code: 'too_large' });
    // Queued behind the page that killed the thread: converted by the next one, from its copy.
    expect((await next).title).toBe('Page 2');
    // A small Buffer is a slice of Node's shared pool: moving that would take other buffers' bytes.
    const pooled = Buffer.from(html(3));
    expect(pooled.byteLength).toBeLessThan(pooled.buffer.byteLength);
    expect(
      (
        await pool.convert({
          kind: 'html',
          body: { bytes: pooled, headerCharset: null },
          finalUrl: 'https://s.example/3',
        })
      ).title,
    ).toBe('Page 3');
    expect(pooled.toString()).toBe(html(3));
    expect(mainThread.conversions).toBe(0);
  });
});
