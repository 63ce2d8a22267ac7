/**
 * Part (b) of the extraction quality harness: our own real set beyond
 * articles. 48 documentation pages saved by Debian's packages (Python's
 * library reference, git's manual pages, SQLite's release logs) read from
 * `/usr/share/doc`, never copied into the repository, with references judged
 * from each page (`real-set.json`) before the engine was run on them. Half
 * of each family is held: figures are printed for dev and held side by side,
 * and only dev may be looked at when changing the engine.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExtractionSchema } from '@webdata/contract';
import { load } from 'cheerio';
import type { FixtureRoute } from '../../test/fixture-site.js';
import { extractBatch } from './api-batch.js';
import { normalizeField } from './field-scores.js';
import { startPageServer } from './page-server.js';
import { CorpusMissingError } from './shared-corpus.js';

/** Where Debian keeps packages' documentation. */
const DOC_ROOT = '/usr/share/doc/';

/** A family of pages: one request (schema and query) a user would send for pages of that kind. */
interface Family {
  schema: ExtractionSchema;
  query: string;
}

const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });

/** The requests, one per family: every field nullable and required, so absence must come back as null. */
export const FAMILIES: Record<string, Family> = {
  'python-library': {
    query:
      'The Python version this documentation is for, the previous and the next topic, the link to the source code, and the date the page was last updated. Use null when absent.',
    schema: {
      type: 'object',
      properties: {
        version: nullable('string'),
        previousTopic: nullable('string'),
        nextTopic: nullable('string'),
        sourceCode: nullable('string', { format: 'uri' }),
        lastUpdated: nullable('string', { format: 'date' }),
      },
      required: ['version', 'previousTopic', 'nextTopic', 'sourceCode', 'lastUpdated'],
    } as ExtractionSchema,
  },
  'git-manual': {
    query:
      'The command this manual page documents, its one-line summary, the manual section number, and when the page was last updated. Use null when absent.',
    schema: {
      type: 'object',
      properties: {
        command: nullable('string'),
        summary: nullable('string'),
        manualSection: nullable('integer'),
        lastUpdated: nullable('string', { format: 'date-time' }),
      },
      required: ['command', 'summary', 'manualSection', 'lastUpdated'],
    } as ExtractionSchema,
  },
  'sqlite-release': {
    query:
      'The SQLite version released, its release date, the SQLITE_SOURCE_ID, and the SHA3-256 hash of sqlite3.c. Use null when absent.',
    schema: {
      type: 'object',
      properties: {
        version: nullable('string'),
        releaseDate: nullable('string', { format: 'date' }),
        sourceId: nullable('string'),
        sha3: nullable('string'),
      },
      required: ['version', 'releaseDate', 'sourceId', 'sha3'],
    } as ExtractionSchema,
  },
};

/** One judged page. */
interface RealPage {
  /** Path under `/usr/share/doc`. */
  page: string;
  family: string;
  split: 'dev' | 'held';
  /** SHA-256 of the page the references were judged on: another version of the page is not scored. */
  sha256: string;
  expected: Record<string, unknown>;
}

/** Figures of one extractor on one split. */
export interface SplitFigures {
  pages: number;
  fields: number;
  correct: number;
  /** Fields whose reference is null, and how many came back null. */
  absent: number;
  nullWhenAbsent: number;
  /** Fields with a reference value that came back as a different (wrong) value. */
  wrong: number;
}

/** Everything part (b) measured. */
export interface RealSetReport {
  /** Pages whose file is missing or differs from the judged one (not scored). */
  unscored: string[];
  failedResults: number;
  extractors: { name: string; dev: SplitFigures; held: SplitFigures }[];
  /** Dev misses of the engine (held misses are not shown: held is never tuned on). */
  devMisses: { page: string; field: string; expected: unknown; actual: unknown }[];
}

function loadRealSet(): { pages: (RealPage & { html: string })[]; unscored: string[] } {
  if (!existsSync(DOC_ROOT)) throw new CorpusMissingError(`${DOC_ROOT} is missing`);
  const file = JSON.parse(readFileSync(new URL('./real-set.json', import.meta.url), 'utf8')) as {
    pages: RealPage[];
  };
  const pages: (RealPage & { html: string })[] = [];
  const unscored: string[] = [];
  for (const p of file.pages) {
    const path = join(DOC_ROOT, p.page);
    const bytes = existsSync(path) ? readFileSync(path) : undefined;
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== p.sha256) unscored.push(p.page);
    else pages.push({ ...p, html: bytes.toString('utf8') });
  }
  if (pages.length === 0)
    throw new CorpusMissingError(
      'none of the judged pages is in /usr/share/doc (install python3.11-doc, git-doc, sqlite3-doc)',
    );
  return { pages, unscored };
}

/**
 * The plain baseline for fields beyond articles: a `<meta name|property>`
 * or an `itemprop` named like the field (case-insensitive, `og:`-style
 * prefixes ignored), as stated; otherwise null.
 */
export function naiveNamedTags(html: string, fields: string[]): Record<string, unknown> {
  const $ = load(html);
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const want = field.toLowerCase();
    let value: string | undefined;
    $('meta[content]').each((_, el) => {
      const name = ($(el).attr('name') ?? $(el).attr('property') ?? '').toLowerCase();
      if (value === undefined && (name === want || name.endsWith(`:${want}`))) value = $(el).attr('content');
    });
    $('[itemprop]').each((_, el) => {
      if (value === undefined && ($(el).attr('itemprop') ?? '').toLowerCase() === want)
        value = $(el).attr('content') ?? $(el).text();
    });
    out[field] = value?.trim() ? value.trim() : null;
  }
  return out;
}

function score(
  pages: RealPage[],
  answers: Map<string, Record<string, unknown>>,
  split: 'dev' | 'held',
  misses?: RealSetReport['devMisses'],
): SplitFigures {
  const figures: SplitFigures = { pages: 0, fields: 0, correct: 0, absent: 0, nullWhenAbsent: 0, wrong: 0 };
  for (const p of pages) {
    if (p.split !== split) continue;
    figures.pages++;
    const got = answers.get(p.page) ?? {};
    for (const [field, expected] of Object.entries(p.expected)) {
      figures.fields++;
      const actual = got[field] ?? null;
      const same = normalizeField(expected) === normalizeField(actual);
      if (same) figures.correct++;
      if (expected === null) {
        figures.absent++;
        if (actual === null) figures.nullWhenAbsent++;
      } else if (actual !== null && !same) figures.wrong++;
      if (!same && misses) misses.push({ page: p.page, field, expected, actual });
    }
  }
  return figures;
}

/**
 * Measures part (b): serves the judged pages from 127.0.0.1, extracts each
 * family in one run through the built server's API (a child process), and
 * the naive baseline in process, on the same pages.
 */
export async function measureRealSet(): Promise<RealSetReport> {
  const { pages, unscored } = loadRealSet();
  const routes: Record<string, FixtureRoute> = {};
  for (const p of pages) routes[`/${p.page}`] = { body: p.html };
  const pageServer = await startPageServer(routes, 'extract-real-set');
  try {
    const { call, siteUrl } = pageServer;
    const engine = new Map<string, Record<string, unknown>>();
    const naive = new Map<string, Record<string, unknown>>();
    let failedResults = 0;
    for (const [name, family] of Object.entries(FAMILIES)) {
      const members = pages.filter((p) => p.family === name);
      if (members.length === 0) continue;
      const urlOf = (p: RealPage) => `${siteUrl}/${p.page}`;
      const batch = await extractBatch(call, members.map(urlOf), family.schema, family.query);
      const fields = Object.keys(family.schema.properties ?? {});
      for (const p of members) {
        const result = batch.results.get(urlOf(p));
        if (result?.status !== 'succeeded') failedResults++;
        engine.set(p.page, (result?.data as Record<string, unknown> | undefined) ?? {});
        naive.set(p.page, naiveNamedTags(p.html, fields));
      }
    }
    const devMisses: RealSetReport['devMisses'] = [];
    return {
      unscored,
      failedResults,
      extractors: [
        {
          name: 'webdata default engine, through the API',
          dev: score(pages, engine, 'dev', devMisses),
          held: score(pages, engine, 'held'),
        },
        {
          name: 'naive: meta/itemprop named like the field',
          dev: score(pages, naive, 'dev'),
          held: score(pages, naive, 'held'),
        },
      ],
      devMisses,
    };
  } finally {
    await pageServer.close();
  }
}

/** The report as text: per extractor, dev and held side by side (exact match, wrong values, null-when-absent). */
export function formatRealSet(report: RealSetReport, showMisses = true): string {
  const cell = (f: SplitFigures) =>
    `${f.correct}/${f.fields} = ${(f.correct / Math.max(f.fields, 1)).toFixed(2)}, wrong ${f.wrong}, null ${f.nullWhenAbsent}/${f.absent}`.padEnd(
      40,
    );
  const first = report.extractors[0];
  const lines = [
    `own real set (Debian HTML manuals, judged by hand): ${first ? first.dev.pages + first.held.pages : 0} pages ` +
      `(${report.failedResults} failed result(s)${report.unscored.length ? `, ${report.unscored.length} not scored: page changed or missing` : ''}); exact match`,
    `${'extractor'.padEnd(44)} ${'dev'.padEnd(40)} held (never tuned on)`,
  ];
  for (const e of report.extractors) lines.push(`${e.name.padEnd(44)} ${cell(e.dev)} ${cell(e.held)}`);
  if (showMisses && report.devMisses.length > 0) {
    lines.push('', 'engine, dev pages only: values that differ from the reference');
    for (const m of report.devMisses)
      lines.push(
        `  ${m.page.padEnd(46)} ${m.field.padEnd(13)} want ${JSON.stringify(m.expected)}  got ${JSON.stringify(m.actual)}`,
      );
  }
  return lines.join('\n');
}
