/**
 * Where a page's conversion CPU goes (`npx tsx bench/convert-profile.ts`):
 * the stages of `convertPage` timed one by one over a spread sample of the
 * development manuals (Debian's Python and Git manuals), in this process,
 * after a warm-up pass. Every page goes the light path (light parse, scan,
 * the marked element cleaned or, on a page that marks nothing, the picker's
 * choice, text, Markdown); a page whose marked element is too short, or
 * that the light tree cannot take, the linkedom path after it (parse, scan,
 * Readability, text, Markdown).
 * The linkedom parse of every page is timed too, for comparison. Prints
 * CPU ms per page (this thread's user + system time, not wall time: the
 * machine is shared) for each stage and the whole.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertPage } from '../src/content/convert-page.js';
import { type ContentElement, parseLightDocument } from '../src/content/light-dom.js';
import { extractMainContent, markedContent, removeNoise } from '../src/content/main-content.js';
import { elementToMarkdown } from '../src/content/markdown.js';
import { documentBaseUrl, scanPage } from '../src/content/page-metadata.js';
import { parseHtmlDocument } from '../src/content/parse-document.js';
import { pickMainContent, shortPageContent } from '../src/content/pick-content.js';
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

function profile(root: string): {
  pages: number;
  kb: number;
  marked: number;
  fallback: number;
  ms: Record<string, number>;
} {
  const files = (readdirSync(root, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.html') && !file.startsWith('_'))
    .sort();
  const step = Math.max(1, Math.floor(files.length / SAMPLE));
  const sample = files.filter((_, i) => i % step === 0).slice(0, SAMPLE);
  const ms: Record<string, number> = Object.fromEntries(STAGES.map((s) => [s, 0]));
  let bytes = 0;
  let marked = 0;
  let fallback = 0;
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
      // The light path, as convertPage takes it: the marked element, else the picker's choice.
      let content: ContentElement | null = null;
      let isMarked = false;
      const light = timed(parse, () => parseLightDocument(html));
      const body = light.body;
      if (light.documentElement?.tagName === 'HTML' && body) {
        const base = documentBaseUrl(light, url);
        const facts = timed('scan', () => scanPage(light, base));
        const linkBase = base?.href ?? url;
        const root = facts.contentRoot;
        content = timed('main content', () => {
          if (root) {
            isMarked = markedContent(root, linkBase);
            return isMarked ? root : null;
          }
          const picked = pickMainContent(body, linkBase) ?? shortPageContent(body);
          removeNoise(picked, linkBase);
          return picked;
        });
      }
      if (!content) {
        // The linkedom path: the light work above is what convertPage spends before turning to it.
        const document = timed(parse, () => parseHtmlDocument(html));
        const base = documentBaseUrl(document, url);
        const facts = timed('scan', () => scanPage(document, base));
        const main = timed('main content', () =>
          extractMainContent(document, {
            keepClasses: facts.codeLanguageClasses,
            contentRoot: facts.contentRoot,
            elementCount: facts.elementCount,
            maxDepth: facts.maxDepth,
            pageUrl: base?.href ?? url,
            reparse: () => parseHtmlDocument(html),
          }),
        );
        content = main.element;
        fallback += measured ? 1 : 0;
      }
      const done = content;
      timed('text', () => elementToText(done));
      timed('markdown', () => elementToMarkdown(done));
      timed('convertPage (no html format)', () => convertPage(html, url, { html: false }));
      timed('convertPage (all formats)', () => convertPage(html, url));
      timed('linkedom parse (comparison)', () => parseHtmlDocument(html));
      if (measured) {
        bytes += html.length;
        if (isMarked) marked += 1;
      }
    }
  }
  for (const stage of STAGES) ms[stage] = ms[stage]! / sample.length;
  return { pages: sample.length, kb: bytes / sample.length / 1024, marked, fallback, ms };
}

for (const manual of MANUALS) {
  const { pages, kb, marked, fallback, ms } = profile(manual.root);
  console.log(
    `${manual.name}: ${pages} pages, ${kb.toFixed(0)} KB of HTML a page, ${marked} marking their main content, ` +
      `${fallback} on the linkedom + Readability fallback`,
  );
  for (const stage of STAGES)
    console.log(`  ${stage.padEnd(30)} ${ms[stage]!.toFixed(1).padStart(7)} ms/page`);
}
