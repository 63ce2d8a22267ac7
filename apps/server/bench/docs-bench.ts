/**
 * Throughput on real pages (`pnpm --filter @webdata/server bench`, or
 * `bench docs` for this part alone). Serves Debian's HTML manuals from
 * 127.0.0.1 and prints, from one run:
 * 1. deep crawl with markdown, index and persistence through our API against
 *    Crawlee's CheerioCrawler (parse and enqueue links, nothing stored) at
 *    the same concurrency: pages/s and their ratio (goal ≥ 2.0×), CPU ms per
 *    page of each process (/proc; goal ≤ 6 ms for the service), peak RSS
 *    (goal ≤ 300 MB), and from the site's side whether every HTML page was
 *    fetched exactly once;
 * 2. a sampled fidelity check: the blocks of text Readability keeps on a page
 *    that are missing from the Markdown the service stored (goal: none;
 *    what Readability keeps only with its chrome filter off, outside the
 *    content the page marks, is reported apart: `bench/paragraph-check.ts`);
 * 3. full-page screenshots through the API (a crawl with `screenshot: true`)
 *    against bare playwright-core with the same Chromium, the same
 *    concurrency and the same full-page cut (goal ≥ 0.9×).
 * The Python manual is the development corpus; the SQLite manual is held
 * (never tuned on) and reported beside it.
 *
 * Settings: BENCH_DOCS_CONCURRENCY (8), BENCH_DOCS_CRAWL_ROUNDS (2: each round crawls with both,
 * which first alternating; the ratio is over all rounds' pages and seconds), BENCH_DOCS_SAMPLE (30 pages checked
 * per corpus), BENCH_DOCS_SCREENSHOTS (24 pages, at most 100; 0 skips them), BENCH_DOCS_SCREENSHOT_CONCURRENCY (2),
 * BENCH_DOCS_CORPORA (dev,held: the Python and SQLite manuals; `git` adds the Git manual, development data
 * with smaller pages; `pg` the PostgreSQL 15 manual, held, ~15 KB pages; an absolute path, any other manual's
 * directory with an `index.html`; `none` with screenshots on runs the screenshots alone), BENCH_DOCS_SCREENSHOT_CORPUS
 * (dev: the Python manual's pages are screenshotted; `held`, `git` or a directory's path takes that manual's instead),
 * BENCH_DOCS_SCREENSHOT_ROUNDS (2: API then bare, then bare then API; each side's rate is over all
 * its legs), BENCH_DOCS_SCREENSHOT_STEPS (1: also the service alone in this process, with its step
 * times; 0 leaves it out).
 */
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ApiCall, apiClient } from '../test/api-client.js';
import { serverCommand } from '../test/server-process.js';
import { bareScreenshots } from './bare-screenshots.js';
import { CHILD_DEADLINE_MS, startChild, stopChild } from './child-process.js';
import { type CrawlFigures, crawlWithCrawlee, crawlWithServer } from './deep-crawl-bench.js';
import { DocsSite } from './docs-site.js';
import { missingBlocks, readabilityBlocks } from './paragraph-check.js';
import { serviceScreenshots } from './service-screenshots.js';

/** A Debian HTML manual the bench serves. */
interface Corpus {
  /** What BENCH_DOCS_CORPORA names it by (another directory: its absolute path). */
  key: string;
  /** `other`: a directory named by its path, for measuring on pages neither side was developed on. */
  part: 'dev' | 'held' | 'other';
  name: string;
  debianPackage: string;
  root: string;
  start: string;
}

const CORPORA: readonly Corpus[] = [
  {
    key: 'dev',
    part: 'dev',
    name: 'Python 3.11 manual',
    debianPackage: 'python3.11-doc',
    root: '/usr/share/doc/python3.11/html',
    start: 'index.html',
  },
  {
    key: 'held',
    part: 'held',
    name: 'SQLite manual',
    debianPackage: 'sqlite3-doc',
    root: '/usr/share/doc/sqlite3',
    start: 'index.html',
  },
  {
    // Development data too (the picker was tuned on it): ~34 KB pages that mark no main content,
    // nearer the small pages on which a page's fixed costs weigh most. Crawled only when named.
    key: 'git',
    part: 'dev',
    name: 'Git manual',
    debianPackage: 'git-doc',
    root: '/usr/share/doc/git-doc',
    start: 'index.html',
  },
  {
    // Held too, measured and never tuned on: ~15 KB pages (1,173 files), the page size of the
    // site issue 12 was filed on, where a page's fixed costs weigh most. Crawled only when named.
    key: 'pg',
    part: 'held',
    name: 'PostgreSQL 15 manual',
    debianPackage: 'postgresql-doc-15',
    root: '/usr/share/doc/postgresql-doc-15/html',
    start: 'index.html',
  },
];

/**
 * A manual named by its directory (an entry of BENCH_DOCS_CORPORA that starts with `/`, its start page
 * `index.html`): how a verifier measures on a manual neither the crawler nor the bench was developed on
 * (`/usr/share/doc/octave/octave.html`, `/usr/share/doc/python-django-doc/html`).
 */
function directoryCorpus(root: string): Corpus {
  return {
    key: root,
    part: 'other',
    name: root,
    debianPackage: 'the package that installs it',
    root,
    start: 'index.html',
  };
}

const GOALS = { ratio: 2.0, cpuMsPerPage: 6, rssMb: 300, screenshotRatio: 0.9 };
const TERMINAL = ['completed', 'incomplete', 'failed', 'cancelled'];

function onceFigures(served: Map<string, number>, all: ReadonlySet<string>) {
  let twice = 0;
  for (const count of served.values()) if (count > 1) twice += 1;
  const missed = [...all].filter((path) => !served.has(path));
  return { distinct: served.size, twice, missed };
}

/** Every result of a run with its Markdown (url → markdown), and its failed pages counted by error code. */
async function markdownByUrl(
  call: ApiCall,
  runId: string,
): Promise<{ byUrl: Map<string, string>; failures: Map<string, number> }> {
  const byUrl = new Map<string, string>();
  const failures = new Map<string, number>();
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const { status, body } = await call(
      'GET',
      `/api/v1/runs/${runId}/results?limit=100&include=content&format=markdown${query}`,
    );
    if (status !== 200) throw new Error(`results of ${runId}: HTTP ${status} ${JSON.stringify(body)}`);
    for (const result of body.data) {
      if (typeof result.content === 'string') byUrl.set(result.url, result.content);
      if (result.error) {
        const key = `${result.error.code}${result.http_status ? ` ${result.http_status}` : ''}`;
        failures.set(key, (failures.get(key) ?? 0) + 1);
      }
    }
    cursor = body.next_cursor ?? null;
  } while (cursor);
  return { byUrl, failures };
}

/** Every `step`-th of the sorted items, `count` at most: a sample that does not depend on crawl order. */
function spreadSample<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]!);
}

interface FidelityFigures {
  pages: number;
  /** Blocks Readability kept, and those of them missing from our Markdown (the check's goal: none). */
  blocks: number;
  missing: { page: string; block: string }[];
  /**
   * Set apart, not counted: blocks Readability kept only with its chrome
   * filter off, from outside the content the page marks (`KeptBlock.chrome`),
   * and how many of them our Markdown does not hold.
   */
  chrome: number;
  chromeMissing: number;
}

async function checkFidelity(
  corpus: Corpus,
  siteUrl: string,
  markdown: Map<string, string>,
  sample: number,
): Promise<FidelityFigures> {
  const pages = spreadSample([...markdown.keys()].filter((url) => url.endsWith('.html')).sort(), sample);
  const figures: FidelityFigures = {
    pages: pages.length,
    blocks: 0,
    missing: [],
    chrome: 0,
    chromeMissing: 0,
  };
  for (const url of pages) {
    const path = decodeURIComponent(new URL(url).pathname);
    const file = join(corpus.root, path.endsWith('/') ? `${path}index.html` : path);
    const html = readFileSync(file, 'utf8');
    const all = readabilityBlocks(html, url);
    const blocks = all.filter((block) => !block.chrome);
    const chrome = all.filter((block) => block.chrome);
    figures.blocks += blocks.length;
    figures.chrome += chrome.length;
    const ours = markdown.get(url)!;
    for (const block of missingBlocks(blocks, ours))
      figures.missing.push({ page: url.slice(siteUrl.length), block: block.kept });
    figures.chromeMissing += missingBlocks(chrome, ours).length;
  }
  return figures;
}

/** One crawler's crawl of the site in one round, with what the site served it. */
type Crawl = CrawlFigures & ReturnType<typeof onceFigures>;

/** One round: our crawl and Crawlee's, one after the other (which first alternates by round). */
interface CrawlRound {
  oursFirst: boolean;
  ours: Crawl;
  crawlee: Crawl;
}

interface CorpusFigures {
  corpus: Corpus;
  htmlPages: number;
  rounds: CrawlRound[];
  fidelity: FidelityFigures;
  /** Our failed pages by error code (links to files that are not pages, or not there), last round. */
  failures: Map<string, number>;
}

async function benchCorpus(
  corpus: Corpus,
  concurrency: number,
  sample: number,
  roundCount: number,
): Promise<CorpusFigures> {
  const site = new DocsSite(corpus.root);
  await site.start();
  try {
    const startUrl = `${site.url}/${corpus.start}`;
    let markdown = new Map<string, string>();
    let failures = new Map<string, number>();
    // Each crawl counts what the site served it alone.
    const servedTo = async (crawl: () => Promise<CrawlFigures>) => {
      site.resetCounts();
      const figures = await crawl();
      return { figures, served: site.htmlServed() };
    };
    const crawlOurs = () =>
      servedTo(() =>
        crawlWithServer(startUrl, 100_000, concurrency, {
          request: { max_depth: 100, formats: ['markdown'] },
          inspect: async (call, runId) => {
            const read = await markdownByUrl(call, runId);
            markdown = read.byUrl;
            failures = read.failures;
          },
        }),
      );
    const crawlCrawlee = () => servedTo(() => crawlWithCrawlee(startUrl, concurrency));
    // Alternating which crawler goes first (ours, Crawlee; then Crawlee, ours; ...) spreads a
    // shared machine's drifting load over both sides instead of onto whichever ran second.
    type Served = Awaited<ReturnType<typeof servedTo>>;
    const served: { oursFirst: boolean; ours: Served; crawlee: Served }[] = [];
    for (let round = 0; round < roundCount; round++) {
      const oursFirst = round % 2 === 0;
      if (oursFirst) {
        const ours = await crawlOurs();
        served.push({ oursFirst, ours, crawlee: await crawlCrawlee() });
      } else {
        const crawlee = await crawlCrawlee();
        served.push({ oursFirst, ours: await crawlOurs(), crawlee });
      }
    }
    const all = new Set(served.flatMap((r) => [...r.ours.served.keys(), ...r.crawlee.served.keys()]));
    const fidelity = await checkFidelity(corpus, site.url, markdown, sample);
    return {
      corpus,
      htmlPages: all.size,
      rounds: served.map((r) => ({
        oursFirst: r.oursFirst,
        ours: { ...r.ours.figures, ...onceFigures(r.ours.served, all) },
        crawlee: { ...r.crawlee.figures, ...onceFigures(r.crawlee.served, all) },
      })),
      fidelity,
      failures,
    };
  } finally {
    await site.stop();
  }
}

/** Screenshots through the API: the seconds of a crawl of `urls` with `screenshot: true` (after a warm-up run). */
async function apiScreenshots(
  urls: readonly string[],
  concurrency: number,
): Promise<{ seconds: number; shots: number; errors: string[]; stepMs: Record<string, number> | undefined }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webdata-docs-shots-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // info: the server logs its screenshot step times when it stops (and its requests, a few thousand lines).
    WEBDATA_LOG_LEVEL: 'info',
    WEBDATA_RUN_WORKERS: 'true',
    WEBDATA_WORKERS: String(Math.max(8, concurrency)),
    WEBDATA_PER_HOST_CONCURRENCY: String(Math.max(8, concurrency)),
    WEBDATA_SCREENSHOT_CONCURRENCY: String(concurrency),
    WEBDATA_RATE_LIMIT: '1000000',
    WEBDATA_MAX_ACTIVE_RUNS: '1000000',
    WEBDATA_RATE_BURST: '1000000',
  };
  const args = [
    ...serverCommand(true),
    'start',
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--allow-private-networks',
  ];
  const server = await startChild(
    args,
    /listening on (http:\/\/\S+)[\s\S]*^API key: (wd_key_[0-9a-z]{26}_[A-Za-z0-9_-]{32})$/m,
    env,
    [],
    false,
  );
  try {
    const call = apiClient(server.match[1]!, server.match[2]!);
    const crawl = async (list: readonly string[]) => {
      const created = await call('POST', '/api/v1/crawl', {
        urls: list,
        screenshot: true,
        formats: ['markdown'],
      });
      if (created.status !== 202) throw new Error(`crawl refused: ${JSON.stringify(created.body)}`);
      let run = created.body;
      const deadline = Date.now() + CHILD_DEADLINE_MS;
      while (!TERMINAL.includes(run.status)) {
        if (Date.now() > deadline) throw new Error(`screenshot crawl still ${run.status}`);
        await sleep(50);
        run = (await call('GET', `/api/v1/runs/${run.id}`)).body;
      }
      return run;
    };
    await crawl([urls[0]!]); // warm-up: launches the browser
    const started = performance.now();
    const run = await crawl(urls);
    const seconds = (performance.now() - started) / 1000;
    if (urls.length > 100) throw new Error('BENCH_DOCS_SCREENSHOTS: at most 100 pages (one page of results)');
    const { body } = await call('GET', `/api/v1/runs/${run.id}/results?limit=100`);
    const errors: string[] = [];
    let shots = 0;
    for (const result of body.data) {
      if (result.has_screenshot) shots += 1;
      else errors.push(`${result.url}: ${JSON.stringify(result.screenshot_error ?? result.error)}`);
    }
    await stopChild(server.child);
    // 'exit' may come before the last of its output.
    const stdout = server.child.stdout!;
    if (!stdout.readableEnded) await once(stdout, 'end');
    return { seconds, shots, errors, stepMs: loggedStepMs(server.output()) };
  } finally {
    await stopChild(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The screenshot step times the server logged when it stopped (its warm-up capture included). */
function loggedStepMs(output: string): Record<string, number> | undefined {
  const line = output.split('\n').find((l) => l.includes('"screenshot step times"'));
  return line
    ? (JSON.parse(line) as { screenshotStepMs: Record<string, number> }).screenshotStepMs
    : undefined;
}

/** The files of a manual a crawl reached (sorted paths), for the screenshot sample. */
async function screenshotSample(corpus: Corpus, siteUrl: string, count: number): Promise<string[]> {
  const { readdirSync } = await import('node:fs');
  const files = (readdirSync(corpus.root, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.html') && !file.startsWith('_'))
    .sort();
  return spreadSample(files, count).map((file) => `${siteUrl}/${file}`);
}

function verdict(ok: boolean): string {
  return ok ? 'ok' : 'MISSED';
}

/** A crawler's figures over every round: rates and CPU over all rounds' pages, the worst round for the rest. */
function overRounds(crawls: readonly Crawl[]) {
  const sum = (pick: (c: Crawl) => number) => crawls.reduce((total, c) => total + pick(c), 0);
  return {
    pages: sum((c) => c.pages),
    seconds: sum((c) => c.seconds),
    /** Distinct HTML pages served, over all rounds. */
    distinct: sum((c) => c.distinct),
    cpuMs: sum((c) => c.cpuMs),
    rssPeakMb: Math.max(...crawls.map((c) => c.rssPeakMb)),
    fewestDistinct: Math.min(...crawls.map((c) => c.distinct)),
    twice: Math.max(...crawls.map((c) => c.twice)),
    missed: [...new Set(crawls.flatMap((c) => c.missed))],
  };
}

function printCorpus(f: CorpusFigures, concurrency: number): void {
  const row = (name: string, c: ReturnType<typeof overRounds>) =>
    `  ${name.padEnd(24)} ${String(c.pages).padStart(6)} ${c.seconds.toFixed(1).padStart(7)} ${(c.distinct / c.seconds).toFixed(1).padStart(8)} ${(c.cpuMs / Math.max(1, c.distinct)).toFixed(1).padStart(7)} ${String(c.rssPeakMb).padStart(8)}   ${c.fewestDistinct}/${f.htmlPages} ${c.twice} ${c.missed.length}`;
  console.log(
    `\n${f.corpus.part}: ${f.corpus.name} (${f.corpus.debianPackage}), ${f.htmlPages} HTML pages from 127.0.0.1, deep crawl at concurrency ${concurrency}, ${f.rounds.length} round(s)`,
  );
  console.log(
    '                            pages       s  pages/s  CPU ms/page  peak MB   HTML fetched/all (fewest in a round), twice+, missed',
  );
  const ours = overRounds(f.rounds.map((r) => r.ours));
  const crawlee = overRounds(f.rounds.map((r) => r.crawlee));
  console.log(row('webdata (md+index+store)', ours));
  console.log(row('Crawlee CheerioCrawler', crawlee));
  // pages/s from the site's side: distinct HTML pages served per second, the same measure for both.
  const rate = (c: { distinct: number; seconds: number }) => c.distinct / c.seconds;
  if (f.rounds.length > 1) {
    const each = f.rounds.map(
      (r, i) =>
        `${i + 1} (${r.oursFirst ? 'webdata' : 'Crawlee'} first) ${(rate(r.ours) / rate(r.crawlee)).toFixed(2)}, ` +
        `${(r.ours.cpuMs / Math.max(1, r.ours.distinct)).toFixed(1)} ms/page`,
    );
    console.log(`  rounds: ${each.join('; ')}`);
  }
  const ratio = rate(ours) / rate(crawlee);
  const cpuPerPage = ours.cpuMs / Math.max(1, ours.distinct);
  const once = ours.twice === 0 && ours.missed.length === 0;
  console.log(
    `  ratio webdata / Crawlee (HTML pages/s, all rounds): ${ratio.toFixed(2)} (goal ≥ ${GOALS.ratio}) ${verdict(ratio >= GOALS.ratio)}; ` +
      `CPU ${cpuPerPage.toFixed(1)} ms/page (goal ≤ ${GOALS.cpuMsPerPage}) ${verdict(cpuPerPage <= GOALS.cpuMsPerPage)}; ` +
      `RSS peak ${ours.rssPeakMb} MB (goal ≤ ${GOALS.rssMb}) ${verdict(ours.rssPeakMb <= GOALS.rssMb)}; ` +
      `every page exactly once: ${once ? 'yes' : `NO (${ours.twice} twice+, missed ${ours.missed.slice(0, 3).join(' ')})`}`,
  );
  if (f.failures.size > 0) {
    const list = [...f.failures].map(([code, n]) => `${code} ×${n}`).join(', ');
    console.log(`  our failed pages (not HTML pages, or missing): ${list}`);
  }
  const fid = f.fidelity;
  console.log(
    `  fidelity (sample of ${fid.pages} pages): ${fid.blocks} blocks Readability kept, ${fid.missing.length} missing from our Markdown ` +
      `(goal 0) ${verdict(fid.missing.length === 0)}; not counted: ${fid.chrome} more that Readability kept only with its chrome filter off, ` +
      `outside the content the page marks (${fid.chromeMissing} of them not in our Markdown)`,
  );
  for (const miss of fid.missing.slice(0, 5)) console.log(`    ${miss.page}: "${miss.block.slice(0, 100)}"`);
}

/** Runs the docs benchmark and prints its figures. */
export async function benchDocs(): Promise<void> {
  const concurrency = Number(process.env.BENCH_DOCS_CONCURRENCY ?? 8);
  const sample = Number(process.env.BENCH_DOCS_SAMPLE ?? 30);
  const shots = Number(process.env.BENCH_DOCS_SCREENSHOTS ?? 24);
  const shotConcurrency = Number(process.env.BENCH_DOCS_SCREENSHOT_CONCURRENCY ?? 2);
  const shotRounds = Math.max(1, Number(process.env.BENCH_DOCS_SCREENSHOT_ROUNDS ?? 2));
  const shotSteps = process.env.BENCH_DOCS_SCREENSHOT_STEPS !== '0';
  const parts = (process.env.BENCH_DOCS_CORPORA ?? 'dev,held').split(',');
  const corpora = [
    ...CORPORA.filter((c) => parts.includes(c.key)),
    ...parts.filter((p) => p.startsWith('/')).map(directoryCorpus),
  ];
  // The screenshots are of the development manual's pages (another's when asked), whichever crawls run.
  const shotKey = process.env.BENCH_DOCS_SCREENSHOT_CORPUS ?? 'dev';
  const shotCorpus = shotKey.startsWith('/')
    ? directoryCorpus(shotKey)
    : CORPORA.find((c) => c.key === shotKey);
  if (!shotCorpus) throw new Error(`BENCH_DOCS_SCREENSHOT_CORPUS: no manual named ${shotKey}`);
  const needed = shots > 0 && !corpora.includes(shotCorpus) ? [...corpora, shotCorpus] : corpora;
  const missing = needed.filter((c) => !existsSync(join(c.root, c.start)));
  if (missing.length > 0) {
    throw new Error(
      `the docs bench needs Debian's HTML manuals: apt-get install ${missing.map((c) => c.debianPackage).join(' ')}`,
    );
  }
  const crawlRounds = Math.max(1, Number(process.env.BENCH_DOCS_CRAWL_ROUNDS ?? 2));
  for (const corpus of corpora)
    printCorpus(await benchCorpus(corpus, concurrency, sample, crawlRounds), concurrency);

  if (shots === 0) return;
  const site = new DocsSite(shotCorpus.root);
  await site.start();
  try {
    const urls = await screenshotSample(shotCorpus, site.url, shots);
    // The legs alternate (API, bare, then bare, API, …): on a shared machine the load drifts
    // during a run, and a side measured always first or always last would carry that drift.
    const ours = {
      seconds: 0,
      shots: 0,
      errors: [] as string[],
      stepMs: {} as Record<string, number>,
      captures: 0,
    };
    const bare = { seconds: 0, pages: 0, stepMs: { load: 0, measure: 0, screenshot: 0 }, bytes: 0 };
    const legs: string[] = [];
    for (let round = 0; round < shotRounds; round++) {
      const sides = round % 2 === 0 ? (['api', 'bare'] as const) : (['bare', 'api'] as const);
      for (const side of sides) {
        if (side === 'api') {
          const leg = await apiScreenshots(urls, shotConcurrency);
          ours.seconds += leg.seconds;
          ours.shots += leg.shots;
          ours.errors.push(...leg.errors);
          if (leg.stepMs) {
            for (const [step, ms] of Object.entries(leg.stepMs))
              ours.stepMs[step] = (ours.stepMs[step] ?? 0) + ms;
            ours.captures += leg.shots + 1; // and its warm-up capture
          }
          legs.push(`API ${(leg.shots / leg.seconds).toFixed(2)}`);
        } else {
          const leg = await bareScreenshots(urls, shotConcurrency);
          bare.seconds += leg.seconds;
          bare.pages += urls.length;
          bare.bytes += leg.bytes;
          for (const step of ['load', 'measure', 'screenshot'] as const)
            bare.stepMs[step] += leg.stepMs[step];
          legs.push(`bare ${(urls.length / leg.seconds).toFixed(2)}`);
        }
      }
    }
    // The service alone (no crawl around it) with its step times: where a capture's time goes.
    const alone = shotSteps ? await serviceScreenshots(urls, shotConcurrency) : undefined;
    const oursRate = ours.shots / ours.seconds;
    const bareRate = bare.pages / bare.seconds;
    const ratio = oursRate / bareRate;
    // ms per page of a rendering slot (two slots overlap in time); the wait for a slot is left out.
    const perPage = (steps: Record<string, number>, pages: number) =>
      Object.entries(steps)
        .filter(([step]) => step !== 'slot')
        .map(([step, ms]) => `${step} ${Math.round(ms / pages)}`)
        .join(', ');
    console.log(
      `\nfull-page screenshots of ${urls.length} ${shotCorpus.name} pages, concurrency ${shotConcurrency}, same Chromium, ` +
        `${shotRounds} round(s) of alternating legs (${legs.join(', ')} pages/s)`,
    );
    console.log(
      `  webdata API (crawl, screenshot: true)  ${oursRate.toFixed(2)} pages/s (${ours.shots} shots)` +
        (ours.captures > 0
          ? `; its service's ms/page: ${perPage(ours.stepMs, ours.captures)} (warm-ups included)`
          : ''),
    );
    if (alone) {
      const aloneRate = urls.length / alone.seconds;
      console.log(
        `  ScreenshotService alone (in-process)   ${aloneRate.toFixed(2)} pages/s (${(aloneRate / bareRate).toFixed(2)} of bare); ` +
          `ms/page: ${perPage(alone.stepMs, urls.length)}; ${(alone.bytes / urls.length / 1024).toFixed(0)} KB/PNG`,
      );
    }
    console.log(
      `  bare playwright-core                   ${bareRate.toFixed(2)} pages/s; ms/page: ${perPage(bare.stepMs, bare.pages)}; ` +
        `${(bare.bytes / Math.max(1, bare.pages) / 1024).toFixed(0)} KB/PNG`,
    );
    console.log(
      `  ratio webdata / bare: ${ratio.toFixed(2)} (goal ≥ ${GOALS.screenshotRatio}) ${verdict(ratio >= GOALS.screenshotRatio)}`,
    );
    for (const error of ours.errors.slice(0, 3)) console.log(`    no screenshot: ${error}`);
  } finally {
    await site.stop();
  }
}
