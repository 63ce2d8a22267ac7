import type { ExtractionSchema, SchemaProperty } from '@webdata/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DefaultExtractionEngine } from './default-engine.js';
import { ExtractionThreads } from './extraction-threads.js';
import type { FillInput } from './fill-page.js';
import type { ExtractionInput } from './types.js';

// Counts fill steps run on this (the main) thread. Worker threads load their own copy of the module,
// which this mock does not reach: a page filled on a thread leaves the count alone.
const mainThread = vi.hoisted(() => ({ fills: 0 }));
vi.mock('./fill-page.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./fill-page.js')>();
  return {
    ...actual,
    fillPage: (input: FillInput) => {
      mainThread.fills += 1;
      return actual.fillPage(input);
    },
  };
});

let threads: ExtractionThreads | undefined;
afterEach(async () => threads?.close());

const url = 'https://shop.example/item';

/** A product page with 200 "Label: value" rows, and a schema asking for each of them and a price. */
function heavyCase(): { html: string; schema: ExtractionSchema } {
  const rows = Array.from({ length: 200 }, (_, i) => `<tr><th>Spec ${i}</th><td>value ${i}</td></tr>`).join(
    '',
  );
  const html = `<html><head><title>Kettle</title><script type="application/ld+json">{"@type":"Product","name":"Kettle","offers":{"@type":"Offer","price":"35.50"}}</script></head><body><main><h1>Kettle</h1><table>${rows}</table></main></body></html>`;
  const properties: Record<string, SchemaProperty> = { name: { type: 'string' }, price: { type: 'number' } };
  for (let i = 0; i < 200; i++) properties[`spec${i}`] = { type: 'string', description: `Spec ${i}` };
  return { html, schema: { type: 'object', properties, required: ['price'] } };
}

describe('ExtractionThreads', () => {
  it('runs the default engine’s reading and filling on a thread, with the inline answers', async () => {
    threads = new ExtractionThreads(1);
    const threaded = new DefaultExtractionEngine(undefined, threads);
    const inline = new DefaultExtractionEngine();
    const heavy = heavyCase();
    const inputs: ExtractionInput[] = [
      { url, ...heavy },
      { url, html: '<h1>Lamp</h1><p>Beautiful lamp.</p>', schema: heavy.schema }, // required price missing
      { url, html: heavy.html, query: 'kettle price' }, // no schema: the generic object
      {
        url,
        html: heavy.html,
        schema: { type: 'object', properties: { name: { type: 'string', maxLength: 2 } } },
      },
    ];
    mainThread.fills = 0;
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const answers = await Promise.all(inputs.map((input) => threaded.extract(input)));
    clearInterval(ticking);
    // No page was read or filled here (an engine that fell back inline would count them), and the
    // event loop kept turning while the thread worked.
    expect(mainThread.fills).toBe(0);
    expect(turns).toBeGreaterThan(0);
    for (const [i, input] of inputs.entries()) expect(answers[i]).toEqual(await inline.extract(input));
    expect(mainThread.fills).toBe(inputs.length); // the inline engine's, for the comparison

    const [filled, missing, generic, invalid] = answers;
    expect(filled).toMatchObject({ ok: true, engine: 'default', data: { name: 'Kettle', price: 35.5 } });
    expect(missing).toEqual({
      ok: false,
      error: { code: 'extraction_failed', message: 'required property "price" not found on the page' },
    });
    expect(generic).toMatchObject({ ok: true, data: { url, title: 'Kettle' } });
    // The schema check still runs after the thread's fill: "Kettle" is longer than maxLength 2.
    expect(invalid).toMatchObject({ ok: false, error: { code: 'extraction_failed' } });
  });

  it('answers a cancelled extraction without filling, and fills inline after close', async () => {
    threads = new ExtractionThreads(1);
    const engine = new DefaultExtractionEngine(undefined, threads);
    const heavy = heavyCase();
    mainThread.fills = 0;
    const aborted = new AbortController();
    aborted.abort();
    expect(await engine.extract({ url, ...heavy, signal: aborted.signal })).toEqual({
      ok: false,
      error: { code: 'cancelled', message: 'the extraction was cancelled' },
    });
    // Cancelled while the thread works: the answer is the cancellation, not the filled object.
    const during = new AbortController();
    const pending = engine.extract({ url, ...heavy, signal: during.signal });
    during.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(mainThread.fills).toBe(0);
    await threads.close();
    expect(await engine.extract({ url, ...heavy })).toMatchObject({ ok: true, data: { price: 35.5 } });
    expect(mainThread.fills).toBe(1);
  });
});
