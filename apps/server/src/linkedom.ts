import { requiredOnFirstUse } from './required-on-first-use.js';

type Linkedom = typeof import('linkedom');
const linkedom = requiredOnFirstUse<Linkedom>('linkedom');

/**
 * linkedom's `parseHTML`, its module loaded on first use. Pages take the
 * light tree (`light-dom.ts`); linkedom serves only the fallback and
 * extraction's Readability reading. Loading it costs a thread about 280 ms
 * of CPU and some MB of heap (measured on a converter thread: 79 ms to
 * start a bare thread, 363 ms with linkedom imported), paid at every
 * converter thread's start when imported statically, whether or not a page
 * ever needs it. `require` is synchronous, as the converter is; it loads
 * linkedom's CommonJS build (patched at install like its ES module build).
 */
export function parseHTML(html: string): ReturnType<Linkedom['parseHTML']> {
  return linkedom().parseHTML(html);
}
