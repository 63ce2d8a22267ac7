/**
 * Part (a) of the extraction quality harness: the 65 saved pages of
 * `../shared/corpora/readability-dev/`, served from 127.0.0.1 and extracted
 * through the service's API in one batch, scored against Readability's
 * reference metadata as that corpus's README says; beside it, in the same
 * run, the naive meta-tag baseline and Readability on linkedom in process.
 */
import type { ExtractionSchema } from '@webdata/contract';
import type { FixtureRoute } from '../../test/fixture-site.js';
import { crawlBatch, extractBatch } from './api-batch.js';
import { type ArticleFields, naiveMetaTags, readabilityOnLinkedom } from './baselines.js';
import { type FieldFigures, normalizeField, scoreField } from './field-scores.js';
import { startPageServer, WORKERS } from './page-server.js';
import { loadReadabilityPages, type ReadabilityPage, sharedCorpusDir } from './shared-corpus.js';

/** The query and schema the corpus README prescribes. */
export const ARTICLE_QUERY =
  "The article's headline (title), its author line (byline), and the name of the website it was published on (siteName). Use null when absent.";
export const ARTICLE_SCHEMA: ExtractionSchema = {
  type: 'object',
  properties: {
    title: { type: ['string', 'null'] },
    byline: { type: ['string', 'null'] },
    siteName: { type: ['string', 'null'] },
  },
  required: ['title', 'byline', 'siteName'],
};
const FIELDS = ['title', 'byline', 'siteName'] as const;

/** One extractor's figures on the corpus. */
export interface ExtractorFigures {
  name: string;
  fields: Record<(typeof FIELDS)[number], FieldFigures>;
  /** Milliseconds per page, and how they were measured. */
  msPerPage: number;
  timing: string;
  /** Pages whose value differs from the reference, per field (for inspection). */
  misses: { page: string; field: string; expected: unknown; actual: unknown }[];
}

/** Everything part (a) measured. */
export interface ReadabilityDevReport {
  pages: number;
  failedResults: number;
  /** The same pages crawled (no extraction) through the same server: what the pipeline costs without extracting. */
  crawlMsPerPage: number;
  extractors: ExtractorFigures[];
}

function figuresOf(
  name: string,
  pages: ReadabilityPage[],
  answers: Map<string, ArticleFields>,
  msPerPage: number,
  timing: string,
): ExtractorFigures {
  const fields = {} as ExtractorFigures['fields'];
  const misses: ExtractorFigures['misses'] = [];
  for (const field of FIELDS) {
    const pairs = pages.map((p) => ({
      expected: p.expected[field],
      actual: answers.get(p.name)?.[field] ?? null,
    }));
    fields[field] = scoreField(pairs);
    pages.forEach((p, i) => {
      const pair = pairs[i]!;
      if (normalizeField(pair.expected) !== normalizeField(pair.actual))
        misses.push({ page: p.name, field, expected: pair.expected, actual: pair.actual });
    });
  }
  return { name, fields, msPerPage, timing, misses };
}

/** Runs `extract` over every page twice (the first pass warms the JIT) and answers the second pass's ms per page. */
function timeInProcess(pages: ReadabilityPage[], extract: (html: string) => ArticleFields) {
  for (const p of pages) extract(p.html);
  const answers = new Map<string, ArticleFields>();
  const started = performance.now();
  for (const p of pages) answers.set(p.name, extract(p.html));
  return { answers, msPerPage: (performance.now() - started) / pages.length };
}

function asFields(data: Record<string, unknown> | null | undefined): ArticleFields {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return { title: text(data?.title), byline: text(data?.byline), siteName: text(data?.siteName) };
}

/**
 * Measures part (a): starts the built server (a child process, `WORKERS`
 * workers) and a site on 127.0.0.1 serving the corpus, extracts the pages
 * once to warm up and once measured, then runs both baselines in process.
 */
export async function measureReadabilityDev(): Promise<ReadabilityDevReport> {
  const pages = loadReadabilityPages(sharedCorpusDir('readability-dev'));
  const routes: Record<string, FixtureRoute> = {};
  for (const p of pages) routes[`/${p.name}/`] = { body: p.html };
  const pageServer = await startPageServer(routes, 'extract-quality');
  try {
    const { call, siteUrl } = pageServer;
    const urlOf = (p: ReadabilityPage, suffix = '') => `${siteUrl}/${p.name}/${suffix}`;
    await extractBatch(
      call,
      pages.map((p) => urlOf(p, '?warm-up')),
      ARTICLE_SCHEMA,
      ARTICLE_QUERY,
    );
    const batch = await extractBatch(
      call,
      pages.map((p) => urlOf(p)),
      ARTICLE_SCHEMA,
      ARTICLE_QUERY,
    );
    // For scale: the same pages as a crawl (fetch, convert, store, no extraction), right after.
    const crawl = await crawlBatch(
      call,
      pages.map((p) => urlOf(p, '?crawl')),
    );
    const answers = new Map<string, ArticleFields>();
    let failedResults = 0;
    for (const p of pages) {
      const result = batch.results.get(urlOf(p));
      if (result?.status !== 'succeeded') failedResults++;
      answers.set(p.name, asFields(result?.data));
    }
    await pageServer.stopServer();

    const naive = timeInProcess(pages, naiveMetaTags);
    const readability = timeInProcess(pages, readabilityOnLinkedom);
    return {
      pages: pages.length,
      failedResults,
      crawlMsPerPage: (crawl.seconds * 1000) / pages.length,
      extractors: [
        figuresOf(
          'webdata default engine, through the API',
          pages,
          answers,
          (batch.seconds * 1000) / pages.length,
          `one run of ${pages.length} URLs, ${WORKERS} workers: wall ${batch.seconds.toFixed(2)} s / ${pages.length} pages`,
        ),
        figuresOf(
          'naive: <title>, meta[name=author], og:site_name',
          pages,
          naive.answers,
          naive.msPerPage,
          'in process, cheerio',
        ),
        figuresOf(
          'Readability 0.6 on linkedom (wrote the references)',
          pages,
          readability.answers,
          readability.msPerPage,
          'in process, parse + Readability',
        ),
      ],
    };
  } finally {
    await pageServer.close();
  }
}

/** The report as text: one line per extractor (exact / F1 per field, null-when-absent, ms per page). */
export function formatReadabilityDev(report: ReadabilityDevReport, showMisses = true): string {
  const two = (n: number) => n.toFixed(2);
  const lines = [
    `readability-dev: ${report.pages} real pages through the API (${report.failedResults} failed result(s)); exact match / token F1`,
    `${'extractor'.padEnd(52)} ${'title'.padEnd(11)} ${'byline'.padEnd(11)} ${'siteName'.padEnd(11)} null-when-absent   ms/page`,
  ];
  for (const e of report.extractors) {
    const absent = FIELDS.reduce((n, f) => n + e.fields[f].absent, 0);
    const nulls = FIELDS.reduce((n, f) => n + e.fields[f].nullWhenAbsent, 0);
    const cells = FIELDS.map((f) => `${two(e.fields[f].exact)}/${two(e.fields[f].f1)}`.padEnd(11));
    lines.push(
      `${e.name.padEnd(52)} ${cells.join(' ')} ${`${nulls}/${absent} = ${two(absent ? nulls / absent : 1)}`.padEnd(18)} ${e.msPerPage.toFixed(1).padStart(7)}  (${e.timing})`,
    );
  }
  lines.push(
    `for scale: the same pages crawled through the API (fetch, convert, store, index for search; no extraction): ${report.crawlMsPerPage.toFixed(1)} ms/page`,
  );
  const ours = report.extractors[0];
  if (showMisses && ours && ours.misses.length > 0) {
    lines.push('', `${ours.name}: values that differ from the reference`);
    for (const m of ours.misses)
      lines.push(
        `  ${m.page.padEnd(32)} ${m.field.padEnd(9)} want ${JSON.stringify(m.expected)}  got ${JSON.stringify(m.actual)}`,
      );
  }
  return lines.join('\n');
}
