/**
 * Two builds of the server, deep-crawling the same real manual alternately
 * (`npx tsx bench/ab-crawl.ts <manual root> <a/main.js> <b/main.js> [rounds]`):
 * on a shared machine one crawl's CPU a page moves by ±3 ms, so a change is
 * judged on several rounds of A then B (then B then A, so neither always goes
 * first), each in a fresh server process. Prints each crawl's CPU ms per page
 * (all threads of the server, from /proc; and by thread: the main thread, the
 * busiest other one, i.e. the converter thread, and V8's and libuv's helper
 * threads together), the CPU the process spent starting (up to listening) and
 * that plus the crawl's per page, pages/s and the RSS peak, then the median of
 * each build. Build A's copy: `pnpm build` then copy `dist/` away; the same
 * build with other node options: BENCH_AB_NODE_ARGS_A / BENCH_AB_NODE_ARGS_B
 * (space-separated, added to the server's command line).
 */
import { crawlWithServer } from './deep-crawl-bench.js';
import { DocsSite } from './docs-site.js';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The figures of one crawl, per page where it says so. */
interface Round {
  cpu: number;
  main: number;
  converter: number;
  helpers: number;
  startupMs: number;
  total: number;
  rate: number;
  rssPeak: number;
}

async function main(): Promise<void> {
  const [root, mainA, mainB, roundsText] = process.argv.slice(2);
  if (!root || !mainA || !mainB)
    throw new Error('usage: ab-crawl.ts <manual root> <a/main.js> <b/main.js> [rounds]');
  const rounds = Number(roundsText ?? 4);
  const site = new DocsSite(root);
  await site.start();
  const results: Record<'A' | 'B', Round[]> = { A: [], B: [] };
  try {
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
      for (const name of order) {
        process.env.BENCH_SERVER_MAIN = name === 'A' ? mainA : mainB;
        process.env.BENCH_SERVER_NODE_ARGS = process.env[`BENCH_AB_NODE_ARGS_${name}`] ?? '';
        site.resetCounts();
        const figures = await crawlWithServer(`${site.url}/index.html`, 100_000, 8, {
          request: { max_depth: 100, formats: ['markdown'] },
        });
        const pages = site.htmlServed().size;
        const threads = figures.threadCpuMs!;
        const r: Round = {
          cpu: figures.cpuMs / pages,
          main: threads.main / pages,
          converter: threads.busiestOther / pages,
          helpers: threads.others / pages,
          startupMs: figures.startupCpuMs!,
          total: (figures.cpuMs + figures.startupCpuMs!) / pages,
          rate: pages / figures.seconds,
          rssPeak: figures.rssPeakMb,
        };
        results[name].push(r);
        console.log(
          `round ${round + 1} ${name}: ${pages} pages (${figures.pages} results), ${r.cpu.toFixed(2)} ms CPU/page ` +
            `(main ${r.main.toFixed(2)}, converter ${r.converter.toFixed(2)}, helpers ${r.helpers.toFixed(2)}), ` +
            `start-up ${r.startupMs} ms CPU, with it ${r.total.toFixed(2)} ms/page, ${r.rate.toFixed(1)} pages/s, ` +
            `RSS idle ${figures.rssIdleMb} MB, peak ${r.rssPeak} MB`,
        );
      }
    }
  } finally {
    await site.stop();
  }
  for (const name of ['A', 'B'] as const) {
    const of = (key: keyof Round) => median(results[name].map((r) => r[key]));
    console.log(
      `${name}: medians: CPU ms/page ${of('cpu').toFixed(2)} (${results[name].map((r) => r.cpu.toFixed(1)).join(' ')}; ` +
        `main ${of('main').toFixed(2)}, converter ${of('converter').toFixed(2)}, helpers ${of('helpers').toFixed(2)}), ` +
        `start-up ${of('startupMs').toFixed(0)} ms, with start-up ${of('total').toFixed(2)} ms/page, ` +
        `pages/s ${of('rate').toFixed(1)}, RSS peak ${of('rssPeak').toFixed(0)} MB (max ${Math.max(...results[name].map((r) => r.rssPeak))})`,
    );
  }
}

await main();
