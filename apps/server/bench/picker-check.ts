/**
 * The main-content picker against Readability on every page of a manual
 * (`npx tsx bench/picker-check.ts [dir…]`; default: the Git manual, the
 * picker's development set). For each page: how `convertPage` took its
 * content (marked, picked, or linkedom + Readability as the fallback), the
 * blocks of text Readability keeps that are missing from our Markdown (the
 * docs bench's paragraph check, here on every page rather than a sample),
 * the Markdown's length against the Readability path's, and CPU ms per page
 * of both paths. `BENCH_PICKER_VERBOSE=1` lists the missing blocks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertPage, convertWithReadability } from '../src/content/convert-page.js';
import { missingBlocks, readabilityBlocks } from './paragraph-check.js';

const roots = process.argv.slice(2);
if (roots.length === 0) roots.push('/usr/share/doc/git-doc');
const verbose = process.env.BENCH_PICKER_VERBOSE === '1';

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

for (const root of roots) {
  const files = (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.html'))
    .sort();
  const paths: Record<string, number> = { light: 0, readability: 0 };
  let blocks = 0;
  let missing = 0;
  let chromeBlocks = 0;
  let chromeMissing = 0;
  let missingBefore = 0;
  let pagesMissing = 0;
  let ourChars = 0;
  let theirChars = 0;
  let ourMs = 0;
  let theirMs = 0;
  for (const file of files) {
    const html = readFileSync(join(root, file), 'utf8');
    const url = `http://127.0.0.1/${file}`;
    let started = cpuMs();
    const ours = convertPage(html, url, { html: false });
    ourMs += cpuMs() - started;
    started = cpuMs();
    const theirs = convertWithReadability(html, url, { html: false });
    theirMs += cpuMs() - started;
    // Readability ran (its metadata is set, even to null) only on the fallback path.
    paths[ours.article === undefined ? 'light' : 'readability']! += 1;
    ourChars += ours.markdown.length;
    theirChars += theirs.markdown.length;
    // Blocks Readability kept only with its chrome filter off, outside the marked content, are set apart.
    const all = readabilityBlocks(html, url);
    const kept = all.filter((block) => !block.chrome);
    const chrome = all.filter((block) => block.chrome);
    blocks += kept.length;
    chromeBlocks += chrome.length;
    const lost = missingBlocks(kept, ours.markdown);
    const chromeLost = missingBlocks(chrome, ours.markdown);
    missing += lost.length;
    chromeMissing += chromeLost.length;
    missingBefore += missingBlocks(kept, theirs.markdown).length;
    if (lost.length > 0) pagesMissing += 1;
    if (verbose) {
      for (const block of lost) console.log(`  ${file}: ${block.kept.slice(0, 100)}`);
      for (const block of chromeLost)
        console.log(`  ${file} (chrome, not counted): ${block.kept.slice(0, 100)}`);
    }
  }
  const n = files.length;
  console.log(
    `${root}: ${n} pages; light tree ${paths.light}, linkedom + Readability ${paths.readability}\n` +
      `  blocks Readability kept, missing from our Markdown: ${missing} of ${blocks} (on ${pagesMissing} pages; ` +
      `not counted: ${chromeBlocks} more kept only with Readability's chrome filter off, outside the marked content, ` +
      `${chromeMissing} of them missing); ` +
      `from the linkedom + Readability path's: ${missingBefore}\n` +
      `  Markdown characters, ours / Readability path's: ${(ourChars / Math.max(1, theirChars)).toFixed(3)}\n` +
      `  CPU ms/page: convertPage ${(ourMs / n).toFixed(1)}, linkedom + Readability path ${(theirMs / n).toFixed(1)}`,
  );
}
