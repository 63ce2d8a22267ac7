import { afterEach, describe, expect, it } from 'vitest';
import { ConverterPool } from './converter-pool.js';

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
    const threaded = await Promise.all(pages.map((page) => pool!.convert(page)));
    for (const [i, page] of pages.entries()) {
      expect(threaded[i]).toEqual(await inline.convert(page));
      expect(threaded[i]?.title).toBe(`Page ${i}`);
      expect(threaded[i]?.links).toEqual([`https://s.example/next/${i}`]);
    }
  });

  it('converts text and JSON pages too, and keeps working after close (inline)', async () => {
    pool = new ConverterPool(1);
    expect(
      (await pool.convert({ kind: 'text', body: 'plain', finalUrl: 'https://s.example/a.txt' })).markdown,
    ).toBe('plain');
    await pool.close();
    expect((await pool.convert({ kind: 'html', body: html(1), finalUrl: 'https://s.example/' })).title).toBe(
      'Page 1',
    );
  });
});
