/**
 * Where a page's conversion CPU goes (`npx tsx bench/convert-profile.ts`):
 * the stages of `convertPage` timed one by one over a spread sample of the
 * development manuals (Debian's Python and Git manuals), in this process,
 * after a warm-up pass. Prints ms per page for each stage and the whole.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertPage } from '../src/content/convert-page.js';
import { extractMainContent } from '../src/content/main-content.js';
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
  'parse',
  'scan',
  'main content',
  'text',
  'markdown',
  'convertPage (no html format)',
  'convertPage (all formats)',
] as const;

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
        const started = performance.now();
        const value = work();
        if (measured) ms[stage]! += performance.now() - started;
        return value;
      };
      const document = timed('parse', () => parseHtmlDocument(html));
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
      timed('text', () => elementToText(main.element));
      timed('markdown', () => elementToMarkdown(main.element));
      timed('convertPage (no html format)', () => convertPage(html, url, { html: false }));
      timed('convertPage (all formats)', () => convertPage(html, url));
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
