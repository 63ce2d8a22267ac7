/**
 * Two builds of the server, deep-crawling the same real manual alternately
 * (`npx tsx bench/ab-crawl.ts <manual root> <a/main.js> <b/main.js> [rounds]`):
 * on a shared machine one crawl's CPU a page moves by ±3 ms, so a change is
 * judged on several rounds of A then B (then B then A, so neither always goes
 * first), each in a fresh server process. Prints each crawl's CPU ms per page
 * (all threads of the server, from /proc) and pages/s, then the median and
 * mean of each build. Build A's copy: `pnpm build` then copy `dist/` away.
 */
import { crawlWithServer } from './deep-crawl-bench.js';
import { DocsSite } from './docs-site.js';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const [root, mainA, mainB, roundsText] = process.argv.slice(2);
  if (!root || !mainA || !mainB)
    throw new Error('usage: ab-crawl.ts <manual root> <a/main.js> <b/main.js> [rounds]');
  const rounds = Number(roundsText ?? 4);
  const site = new DocsSite(root);
  await site.start();
  const cpu: Record<string, number[]> = { A: [], B: [] };
  const rate: Record<string, number[]> = { A: [], B: [] };
  try {
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
      for (const name of order) {
        process.env.BENCH_SERVER_MAIN = name === 'A' ? mainA : mainB;
        site.resetCounts();
        const figures = await crawlWithServer(`${site.url}/index.html`, 100_000, 8, {
          request: { max_depth: 100, formats: ['markdown'] },
        });
        const pages = site.htmlServed().size;
        cpu[name]!.push(figures.cpuMs / pages);
        rate[name]!.push(pages / figures.seconds);
        console.log(
          `round ${round + 1} ${name}: ${pages} pages, ${(figures.cpuMs / pages).toFixed(2)} ms CPU/page, ` +
            `${(pages / figures.seconds).toFixed(1)} pages/s, RSS idle ${figures.rssIdleMb} MB, peak ${figures.rssPeakMb} MB`,
        );
      }
    }
  } finally {
    await site.stop();
  }
  for (const name of ['A', 'B']) {
    const values = cpu[name]!;
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    console.log(
      `${name}: CPU ms/page median ${median(values).toFixed(2)}, mean ${mean.toFixed(2)} ` +
        `(${values.map((v) => v.toFixed(1)).join(' ')}); pages/s median ${median(rate[name]!).toFixed(1)}`,
    );
  }
}

await main();
