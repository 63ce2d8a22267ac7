import { stringify } from 'csv-stringify/sync';
import type { Result } from '../runs/run-types.js';

/** The formats a run's results are saved in. */
export type ResultsFormat = 'json' | 'jsonl' | 'csv';

/** Each format: its name in the pick and the save dialog, and its file extension. */
export const RESULTS_FORMATS: readonly {
  format: ResultsFormat;
  label: string;
  extension: string;
  detail: string;
}[] = [
  {
    format: 'json',
    label: 'JSON',
    extension: 'json',
    detail: 'One array of the results, as the service sends them',
  },
  {
    format: 'jsonl',
    label: 'JSON Lines',
    extension: 'jsonl',
    detail: 'One result a line, as the service sends it: for jq, pandas and streaming tools',
  },
  {
    format: 'csv',
    label: 'CSV',
    extension: 'csv',
    detail: 'One row a result: url, status, title, error and the extracted fields (data.name, data.tags.0…)',
  },
];

/**
 * The format a file name asks for by its extension (`.json`, `.jsonl` or `.ndjson`, `.csv`), if any.
 *
 * @example
 * ```ts
 * formatOfFileName('/home/me/lamps.CSV'); // 'csv'
 * formatOfFileName('/home/me/lamps.txt'); // undefined
 * ```
 */
export function formatOfFileName(name: string): ResultsFormat | undefined {
  const extension = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (extension === 'ndjson') return 'jsonl';
  return RESULTS_FORMATS.find((entry) => entry.extension === extension)?.format;
}

/**
 * Each result's content, when the file carries it (a crawl's pages): looked up as each record is
 * written, so that the contents need not all be held at once.
 */
export type ContentOf = (result: Result) => unknown;

/** The results as the text of a file in `format` (the whole of {@link resultsFileChunks}). */
export function resultsFileText(
  results: Iterable<Result>,
  format: ResultsFormat,
  contentOf?: ContentOf,
): string {
  return [...resultsFileChunks(results, format, contentOf)].join('');
}

/**
 * The text of a results file in `format`, a record at a time (a chunk for the
 * start, one for each result, one for the end), to be written as it comes.
 * With `contentOf`, each record carries the result's content: a `content`
 * field in JSON and JSON Lines, a `content` column last in CSV (a list of
 * links one a line, other values as JSON). `results` is gone through once,
 * and a record is made of each only as it is written; a CSV's header needs
 * every column first: `columns` (a {@link CsvColumns}' of the same results),
 * else they are gathered by a pass of their own. A CSV cell longer than Excel
 * holds is cut ({@link fitCell}); `report` counts them.
 */
export function* resultsFileChunks(
  results: Iterable<Result>,
  format: ResultsFormat,
  contentOf?: ContentOf,
  columns?: readonly string[],
  report?: CsvReport,
): Generator<string> {
  const record = (result: Result): Result =>
    contentOf ? { ...result, content: contentOf(result) ?? null } : result;
  switch (format) {
    case 'json': {
      // As JSON.stringify(results, null, 2) writes it, one result at a time.
      let first = true;
      for (const result of results) {
        const text = JSON.stringify(record(result), null, 2).replaceAll('\n', '\n  ');
        yield `${first ? '[\n' : ',\n'}  ${text}`;
        first = false;
      }
      yield first ? '[]\n' : '\n]\n';
      return;
    }
    case 'jsonl':
      for (const result of results) yield `${JSON.stringify(record(result))}\n`;
      return;
    case 'csv':
      yield* csvChunks(results, contentOf, columns, report);
      return;
  }
}

/** The columns every CSV export starts with, before the extracted fields. */
export const CSV_FIXED_COLUMNS = ['url', 'status', 'title', 'error'] as const;

/**
 * The results as CSV (RFC 4180: CRLF between records, a field holding a
 * comma, a quote or a line break quoted, quotes doubled), one row a result:
 * `url`, `status`, `title`, `error` (a failed page's reason and code), then
 * the extracted fields flattened with dotted names under `data.`
 * (`data.name`, `data.offer.price`, `data.tags.0`), in the order they first
 * appear. The `data.` prefix keeps a field called `title` or `url` apart from
 * the page's own. Cells that a spreadsheet would run as a formula (starting
 * with `=`, `+`, `-`, `@`, a tab or a carriage return; a number keeps its
 * minus) get a leading `'`, as OWASP's advice on CSV injection has it: the
 * pages are other people's text. Written by csv-stringify, after a UTF-8
 * byte-order mark (Excel reads a CSV without one in the system's code page).
 */
export function resultsCsv(results: readonly Result[], contentOf?: ContentOf): string {
  return [...csvChunks(results, contentOf)].join('');
}

/**
 * The columns of a CSV of results, gathered as the results come in any order
 * (a page at a time, as the service lists them), in the order they first
 * appear in the file's order: each result is seen with its place in the
 * file (`rank`, then `seq` among equal ranks: smaller first), and a column
 * goes where the first result in that order to have it put it. The fixed columns first, `content` last
 * when the file carries contents. Holds one entry a column, not the results.
 *
 * @example
 * ```ts
 * const columns = new CsvColumns();
 * columns.see(resultWith({ b: 1 }), 2);
 * columns.see(resultWith({ a: 1 }), 1);
 * columns.columns(false); // ['url', 'status', 'title', 'error', 'data.a', 'data.b']
 * ```
 */
export class CsvColumns {
  /** Each extracted column's first place: the result's rank and seq, then the column's place in its row. */
  readonly #first = new Map<string, [number, number, number]>();

  see(result: Result, rank: number, seq = 0): void {
    let index = 0;
    for (const column of csvRow(result).keys()) {
      index += 1;
      if (index <= CSV_FIXED_COLUMNS.length) continue;
      const first = this.#first.get(column);
      if (!first || compare([rank, seq, index], first) < 0) this.#first.set(column, [rank, seq, index]);
    }
  }

  columns(withContent: boolean): string[] {
    const extracted = [...this.#first.entries()]
      .sort(([, a], [, b]) => compare(a, b))
      .map(([column]) => column);
    return [...CSV_FIXED_COLUMNS, ...extracted, ...(withContent ? ['content'] : [])];
  }
}

function compare(a: readonly number[], b: readonly number[]): number {
  return a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
}

function* csvChunks(
  results: Iterable<Result>,
  contentOf?: ContentOf,
  given?: readonly string[],
  report: CsvReport = { cutCells: 0 },
): Generator<string> {
  let columns = given;
  if (!columns) {
    const all = [...results];
    const gathered = new CsvColumns();
    all.forEach((result, index) => {
      gathered.see(result, index);
    });
    columns = gathered.columns(contentOf !== undefined);
    results = all;
  }
  const options = {
    record_delimiter: 'windows',
    // With a record delimiter given, csv-stringify quotes a lone \n or \r only when asked to.
    quote_record_delimiter: true,
    escape_formulas: true,
    cast: { boolean: (value: boolean) => String(value) },
  } as const;
  // A UTF-8 byte-order mark: without one, Excel reads the file in the system's ANSI code page (Café as CafÃ©).
  yield stringify([columns], { ...options, bom: true });
  for (const result of results) {
    const row = csvRow(result);
    if (contentOf) row.set('content', contentCell(contentOf(result)));
    yield stringify([columns.map((column) => fitCell(row.get(column), report))], options);
  }
}

/** What writing a CSV found: how many cells were cut to fit in Excel. */
export interface CsvReport {
  cutCells: number;
}

/**
 * The most characters (UTF-16 code units) a cell of Excel holds; a CSV cell longer than that is not
 * kept whole by Excel (GitLab cuts its CSV exports there for that reason: the file looked mangled),
 * and a spreadsheet file with one is refused or "repaired". Microsoft's "Excel specifications
 * and limits": 32,767 characters a cell.
 */
export const EXCEL_CELL_LIMIT = 32_767;

/** What csv-stringify's `escape_formulas` puts a `'` before, in a string. */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * A cell of the CSV as it fits in Excel: a text longer than {@link EXCEL_CELL_LIMIT} (counting the
 * `'` that `escape_formulas` may put before it) is cut, and ends with a line saying so and how long
 * it was, so that the cut is seen where it is; `report.cutCells` counts it. The JSON formats keep
 * every text whole. Other values are as they are.
 *
 * @example
 * ```ts
 * fitCell('x'.repeat(40_000), report); // 'xxx…x\n\n[Cut here: Excel holds 32,767 characters a cell, this one had 40,000. …]'
 * ```
 */
export function fitCell(value: unknown, report: CsvReport): unknown {
  if (typeof value !== 'string') return value;
  const room = EXCEL_CELL_LIMIT - (FORMULA_START.test(value) ? 1 : 0);
  if (value.length <= room) return value;
  const marker = `\n\n[Cut here: Excel holds ${EXCEL_CELL_LIMIT.toLocaleString('en-US')} characters a cell, this one had ${value.length.toLocaleString('en-US')}. Save the results as JSON or JSON Lines for all of it.]`;
  let keep = room - marker.length;
  // Not between the two halves of a character outside the BMP (an emoji): that half would be garbage.
  const last = value.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep -= 1;
  report.cutCells += 1;
  return value.slice(0, keep) + marker;
}

/** A content in a CSV cell: text as it is, a list of links one a line, anything else as JSON. */
function contentCell(content: unknown): string | undefined {
  if (content === undefined || content === null) return undefined;
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((item) => typeof item === 'string')) return content.join('\n');
  return JSON.stringify(content);
}

function csvRow(result: Result): Map<string, unknown> {
  const row = new Map<string, unknown>([
    ['url', result.url],
    ['status', result.status],
    ['title', result.title],
    ['error', errorText(result.error)],
  ]);
  if (result.data) flatten(result.data, 'data', row);
  return row;
}

function errorText(error: Result['error']): string | undefined {
  if (!error) return undefined;
  const message = typeof error.message === 'string' ? error.message : '';
  const code = typeof error.code === 'string' ? error.code : '';
  return message && code ? `${message} (${code})` : message || code || undefined;
}

/**
 * Puts `value` into `row` under dotted names: an object's keys and an
 * array's indexes after `path`, down to the scalars. An empty object or
 * array adds nothing (its column, if another result has one, stays empty).
 */
function flatten(value: unknown, path: string, row: Map<string, unknown>): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      flatten(item, `${path}.${index}`, row);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) flatten(item, `${path}.${key}`, row);
  } else {
    row.set(path, value);
  }
}

/**
 * The name a run's results are offered to be saved under: its type, its first
 * URL's host and its id (`extract-shop.example-run_abc.csv`), with nothing a
 * file system may refuse.
 *
 * @example
 * ```ts
 * resultsFileName({ id: 'run_1', type: 'deep-crawl', urls: ['https://docs.python.org/3/'] }, 'jsonl');
 * // 'deep-crawl-docs.python.org-run_1.jsonl'
 * ```
 */
export function resultsFileName(
  run: { id: string; type: string; urls?: readonly string[] },
  extension: string,
): string {
  let host = '';
  try {
    host = run.urls?.[0] ? new URL(run.urls[0]).host : '';
  } catch {
    // Not a URL: the name goes without it.
  }
  const name = [run.type, host, run.id]
    .filter(Boolean)
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '_');
  return `${name}.${extension}`;
}
