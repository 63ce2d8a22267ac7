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

/** The results as the text of a file in `format`. */
export function resultsFileText(results: readonly Result[], format: ResultsFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(results, null, 2)}\n`;
    case 'jsonl':
      return results.map((result) => `${JSON.stringify(result)}\n`).join('');
    case 'csv':
      return resultsCsv(results);
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
 * pages are other people's text. Written by csv-stringify.
 */
export function resultsCsv(results: readonly Result[]): string {
  const rows = results.map(csvRow);
  const columns: string[] = [...CSV_FIXED_COLUMNS];
  const seen = new Set(columns);
  for (const row of rows) {
    for (const column of row.keys()) {
      if (!seen.has(column)) {
        seen.add(column);
        columns.push(column);
      }
    }
  }
  return stringify([columns, ...rows.map((row) => columns.map((column) => row.get(column)))], {
    // A UTF-8 byte-order mark: without one, Excel reads the file in the system's ANSI code page (Café as CafÃ©).
    bom: true,
    record_delimiter: 'windows',
    // With a record delimiter given, csv-stringify quotes a lone \n or \r only when asked to.
    quote_record_delimiter: true,
    escape_formulas: true,
    cast: { boolean: (value) => String(value) },
  });
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
