/**
 * Where a page's conversion CPU goes (`npx tsx bench/convert-profile.ts`):
 * the stages of `convertPage` timed one by one over a spread sample of the
 * development manuals (Debian's Python and Git manuals), in this process,
 * after a warm-up pass. A page that marks its main content goes the light
 * path (light parse, scan, the marked element cleaned, text, Markdown);
 * any other the linkedom path (parse, scan, Readability, text, Markdown).
 * The linkedom parse of every page is timed too, for comparison. Prints
 * CPU ms per page (this thread's user + system time, not wall time: the
 * machine is shared) for each stage and the whole.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertPage, mayMarkMainContent } from '../src/content/convert-page.js';
import { type ContentElement, parseLightDocument } from '../src/content/light-dom.js';
import { extractMainContent, markedContent } from '../src/content/main-content.js';
import { elementToMarkdown } from '../src/content/markdown.js';
import { documentBaseUrl, scanPage } from '../src/content/page-metadata.js';
import { parseHtmlDocument } from '../src/content/parse-document.js';
import { elementToText } from '../src/content/plain-text.js';

const MANUALS = [
  { name: 'Python 3.11 manual', root: '/usr/share/doc/python3.11/html' },
  { name: 'Git manual', root: '/usr/share/doc/git-doc' },
];
const SAMPLE = Number(process.env.BENCH_PROFILE_PAGES ?? 50);

const STAGES = [
  'parse (light tree, or linkedom)',
  'scan',
  'main content',
  'text',
  'markdown',
  'convertPage (no html format)',
  'convertPage (all formats)',
  'linkedom parse (comparison)',
] as const;

/** CPU milliseconds of this process so far. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function profile(root: string): { pages: number; kb: number; marked: number; ms: Record<string, number> } {
  const files = (readdirSync(root, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.html') && !file.startsWith('_'))
    .sort();
  const step = Math.max(1, Math.floor(files.length / SAMPLE));
  const sample = files.filter((_, i) => i % step === 0).slice(0, SAMPLE);
  const ms: Record<string, number> = Object.fromEntries(STAGES.map((s) => [s, 0]));
  let bytes = 0;
  let marked = 0;
  for (const measured of [false, true]) {
    for (const file of sample) {
      const html = readFileSync(join(root, file), 'utf8');
      const url = `http://127.0.0.1/${file}`;
      const timed = <T>(stage: string, work: () => T): T => {
        const started = cpuMs();
        const value = work();
        if (measured) ms[stage]! += cpuMs() - started;
        return value;
      };
      const parse = STAGES[0];
      // The light path, as convertPage takes it for a page marking its content.
      let lightRoot: ContentElement | null = null;
      let isMarked = false;
      if (mayMarkMainContent(html)) {
        const light = timed(parse, () => parseLightDocument(html));
        lightRoot = timed('scan', () => scanPage(light, documentBaseUrl(light, url))).contentRoot;
        const root = lightRoot;
        isMarked = timed('main content', () => root !== null && markedContent(root));
      }
      let content: ContentElement;
      if (isMarked) {
        content = lightRoot!;
      } else {
        // The linkedom path: the light work above is what convertPage spends before turning to it.
        const document = timed(parse, () => parseHtmlDocument(html));
        const facts = timed('scan', () => scanPage(document, documentBaseUrl(document, url)));
        const main = timed('main content', () =>
          extractMainContent(document, {
            keepClasses: facts.codeLanguageClasses,
            contentRoot: facts.contentRoot,
            elementCount: facts.elementCount,
            maxDepth: facts.maxDepth,
            reparse: () => parseHtmlDocument(html),
          }),
        );
        content = main.element;
      }
      timed('text', () => elementToText(content));
      timed('markdown', () => elementToMarkdown(content));
      timed('convertPage (no html format)', () => convertPage(html, url, { html: false }));
      timed('convertPage (all formats)', () => convertPage(html, url));
      timed('linkedom parse (comparison)', () => parseHtmlDocument(html));
      const main = { source: isMarked ? 'marked' : 'other' };
      if (measured) {
        bytes += html.length;
        if (main.source === 'marked') marked += 1;
      }
    }
  }
  for (const stage of STAGES) ms[stage] = ms[stage]! / sample.length;
  return { pages: sample.length, kb: bytes / sample.length / 1024, marked, ms };
}

for (const manual of MANUALS) {
  const { pages, kb, marked, ms } = profile(manual.root);
  console.log(
    `${manual.name}: ${pages} pages, ${kb.toFixed(0)} KB of HTML a page, ${marked} marking their main content`,
  );
  for (const stage of STAGES)
    console.log(`  ${stage.padEnd(30)} ${ms[stage]!.toFixed(1).padStart(7)} ms/page`);
}
