import { describe, expect, it } from 'vitest';
import { parseCsv } from '../test-support/csv.js';
import { makeResult } from '../test-support/runs.js';
import {
  type CsvReport,
  EXCEL_CELL_LIMIT,
  fitCell,
  formatOfFileName,
  resultsCsv,
  resultsFileChunks,
  resultsFileName,
  resultsFileText,
} from './results-file.js';

describe('resultsCsv', () => {
  it('writes one row a result: url, status, title, error, then the extracted fields flattened with dotted names', () => {
    const csv = resultsCsv([
      makeResult('run_1', 'res_1', {
        url: 'https://shop.example/lamp',
        title: 'Brass Desk Lamp',
        data: {
          name: 'Brass Desk Lamp',
          price: 49.9,
          offer: { currency: 'EUR', stock: true },
          tags: ['brass', 'desk'],
        },
      }),
      makeResult('run_1', 'res_2', {
        url: 'https://shop.example/gone',
        status: 'failed',
        title: null,
        data: null,
        error: { code: 'http_error', message: 'HTTP 404 from https://shop.example/gone' },
      }),
      makeResult('run_1', 'res_3', {
        url: 'https://shop.example/chair',
        title: 'Chair',
        data: { name: 'Chair', price: null, title: 'Oak chair', tags: [] },
      }),
    ]);
    expect(parseCsv(csv)).toEqual([
      [
        'url',
        'status',
        'title',
        'error',
        'data.name',
        'data.price',
        'data.offer.currency',
        'data.offer.stock',
        'data.tags.0',
        'data.tags.1',
        'data.title',
      ],
      [
        'https://shop.example/lamp',
        'succeeded',
        'Brass Desk Lamp',
        '',
        'Brass Desk Lamp',
        '49.9',
        'EUR',
        'true',
        'brass',
        'desk',
        '',
      ],
      [
        'https://shop.example/gone',
        'failed',
        '',
        'HTTP 404 from https://shop.example/gone (http_error)',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
      ['https://shop.example/chair', 'succeeded', 'Chair', '', 'Chair', '', '', '', '', '', 'Oak chair'],
    ]);
  });

  it('quotes as RFC 4180 says: commas, quotes doubled, line breaks (a lone LF too), CRLF between records', () => {
    const csv = resultsCsv([
      makeResult('run_1', 'res_1', {
        url: 'https://shop.example/a',
        title: 'Lamps, "brass" and more',
        data: { note: 'line one\nline two', cr: 'a\rb' },
      }),
    ]);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('\uFEFFurl,status,title,error,data.note,data.cr');
    expect(csv).toBe(
      '\uFEFFurl,status,title,error,data.note,data.cr\r\n' +
        'https://shop.example/a,succeeded,"Lamps, ""brass"" and more",,"line one\nline two","a\rb"\r\n',
    );
  });

  it('neutralises cells a spreadsheet would run as formulas, and keeps negative numbers numbers', () => {
    const csv = resultsCsv([
      makeResult('run_1', 'res_1', {
        url: 'https://shop.example/a',
        title: '=HYPERLINK("https://evil.example","click")',
        data: { plus: '+1+2', minus: '-2+3', at: '@SUM(A1)', tab: '\tx', price: -5, fullwidth: '＝1+1' },
      }),
    ]);
    const [, row] = parseCsv(csv);
    expect(row).toEqual([
      'https://shop.example/a',
      'succeeded',
      `'=HYPERLINK("https://evil.example","click")`,
      '',
      "'+1+2",
      "'-2+3",
      "'@SUM(A1)",
      "'\tx",
      '-5',
      "'＝1+1",
    ]);
  });

  it('names no column as a formula: a field name is under data.', () => {
    const csv = resultsCsv([makeResult('run_1', 'res_1', { data: { '=cmd': 'x' } })]);
    expect(parseCsv(csv)[0]).toEqual(['url', 'status', 'title', 'error', 'data.=cmd']);
  });

  it('has the header row alone for no results', () => {
    expect(resultsCsv([])).toBe('\uFEFFurl,status,title,error\r\n');
  });

  it('starts with a UTF-8 byte-order mark, so Excel reads non-ASCII titles as UTF-8', () => {
    const csv = resultsCsv([makeResult('run_1', 'res_1', { title: 'Café – Zürich 東京' })]);
    const bytes = new TextEncoder().encode(csv);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.indexOf('\uFEFF', 1)).toBe(-1);
    expect(parseCsv(csv)[1]?.[2]).toBe('Café – Zürich 東京');
  });
});

describe('resultsFileText', () => {
  const results = [makeResult('run_1', 'res_1'), makeResult('run_1', 'res_2')];

  it('writes JSON as one array of the results, as the service sent them', () => {
    const text = resultsFileText(results, 'json');
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    expect(JSON.parse(text)).toEqual(results);
  });

  it('writes JSON Lines as one result a line', () => {
    const text = resultsFileText(results, 'jsonl');
    // JSON Lines is UTF-8 without a byte-order mark (jq and JSON.parse of the first line reject one).
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    const lines = text.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual(results);
    expect(resultsFileText([], 'jsonl')).toBe('');
  });
});

describe('formatOfFileName', () => {
  it('reads the format from the extension, whatever its case', () => {
    expect(formatOfFileName('/tmp/a.json')).toBe('json');
    expect(formatOfFileName('/tmp/a.JSONL')).toBe('jsonl');
    expect(formatOfFileName('/tmp/a.ndjson')).toBe('jsonl');
    expect(formatOfFileName('c:\\x\\a.csv')).toBe('csv');
    expect(formatOfFileName('/tmp/a.txt')).toBeUndefined();
    expect(formatOfFileName('/tmp/csv')).toBeUndefined();
  });
});

describe('resultsFileName', () => {
  it('names the run by its type, its first host and its id, safe for any file system', () => {
    expect(
      resultsFileName({ id: 'run_1', type: 'deep-crawl', urls: ['https://docs.python.org/3/'] }, 'jsonl'),
    ).toBe('deep-crawl-docs.python.org-run_1.jsonl');
    expect(resultsFileName({ id: 'run_2', type: 'extract', urls: ['http://127.0.0.1:8080/a'] }, 'csv')).toBe(
      'extract-127.0.0.1_8080-run_2.csv',
    );
    expect(resultsFileName({ id: 'run_3', type: 'crawl', urls: [] }, 'json')).toBe('crawl-run_3.json');
  });
});

describe('a crawl saved with its content', () => {
  const results = [
    makeResult('run_1', 'res_1', { url: 'https://docs.example/a', title: 'Café', data: null }),
    makeResult('run_1', 'res_2', {
      url: 'https://docs.example/b',
      status: 'failed',
      title: null,
      data: null,
    }),
    makeResult('run_1', 'res_3', { url: 'https://docs.example/c', title: 'Links', data: null }),
  ];
  const contents: Record<string, unknown> = {
    res_1: '# Café\n\nThe menu, "daily".\n',
    res_3: ['https://docs.example/a', 'https://docs.example/b'],
  };
  const contentOf = (result: { id: string }) => contents[result.id];

  it('gives each JSON and JSON Lines record a content field (null where the result has none)', () => {
    const json = JSON.parse(resultsFileText(results, 'json', contentOf)) as {
      id: string;
      content: unknown;
    }[];
    expect(json.map((record) => record.content)).toEqual([contents.res_1, null, contents.res_3]);
    expect(json[0]).toEqual({ ...results[0], content: contents.res_1 });
    const lines = resultsFileText(results, 'jsonl', contentOf).trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { content: unknown }).content)).toEqual([
      contents.res_1,
      null,
      contents.res_3,
    ]);
  });

  it('gives the CSV a content column, last: the text as it is, links one a line', () => {
    const rows = parseCsv(resultsFileText(results, 'csv', contentOf));
    expect(rows[0]).toEqual(['url', 'status', 'title', 'error', 'content']);
    expect(rows.slice(1).map((row) => row[4])).toEqual([
      contents.res_1,
      '',
      'https://docs.example/a\nhttps://docs.example/b',
    ]);
  });

  it('writes JSON a record at a time as JSON.stringify writes the whole array', () => {
    const many = [
      makeResult('run_1', 'res_1', { data: { a: [1, { b: 'x\ny' }] } }),
      makeResult('run_1', 'res_2'),
    ];
    const chunks = [...resultsFileChunks(many, 'json')];
    expect(chunks).toHaveLength(3);
    expect(chunks.join('')).toBe(`${JSON.stringify(many, null, 2)}\n`);
    expect([...resultsFileChunks([], 'json')].join('')).toBe(`${JSON.stringify([], null, 2)}\n`);
  });

  it('has no content field or column without contents (an extraction)', () => {
    expect(resultsFileText(results, 'jsonl')).not.toContain('"content"');
    expect(parseCsv(resultsFileText(results, 'csv'))[0]).toEqual(['url', 'status', 'title', 'error']);
  });
});

describe('a CSV cell longer than Excel holds', () => {
  const long = (length: number, start = 'x') => start + 'y'.repeat(length - start.length);

  it('is cut to 32,767 characters, ending with a line that says so and how long it was; the rows stay whole', () => {
    const content = long(100_000, '# Page\n\n');
    const report: CsvReport = { cutCells: 0 };
    const csv = [
      ...resultsFileChunks(
        [
          makeResult('run_1', 'res_1', { url: 'https://a.example/', data: { text: long(40_000) } }),
          makeResult('run_1', 'res_2', { url: 'https://b.example/', data: null }),
        ],
        'csv',
        (result) => (result.id === 'res_1' ? content : 'short'),
        undefined,
        report,
      ),
    ].join('');
    const [header, first, second, ...rest] = parseCsv(csv);
    expect(rest).toEqual([]);
    expect(header).toEqual(['url', 'status', 'title', 'error', 'data.text', 'content']);
    const [text, page] = [first![4]!, first![5]!];
    expect(page).toHaveLength(EXCEL_CELL_LIMIT);
    expect(page.startsWith('# Page\n\nyyy')).toBe(true);
    expect(page).toMatch(
      /yyy\n\n\[Cut here: Excel holds 32,767 characters a cell, this one had 100,000\. Save the results as JSON or JSON Lines for all of it\.\]$/,
    );
    expect(text).toHaveLength(EXCEL_CELL_LIMIT);
    expect(text).toMatch(/this one had 40,000\./);
    expect(second).toEqual(['https://b.example/', 'succeeded', 'Page res_2', '', '', 'short']);
    expect(report.cutCells).toBe(2);
  });

  it('is whole at 32,767 characters, and a formula-like one counts the quote put before it', () => {
    const report: CsvReport = { cutCells: 0 };
    expect(fitCell(long(EXCEL_CELL_LIMIT), report)).toBe(long(EXCEL_CELL_LIMIT));
    expect(fitCell(42, report)).toBe(42);
    expect(report.cutCells).toBe(0);
    const formula = long(EXCEL_CELL_LIMIT, '=');
    const cell = parseCsv(resultsCsv([makeResult('run_1', 'res_1', { title: formula })]))[1]?.[2];
    expect(cell!.startsWith("'=")).toBe(true);
    expect(cell).toHaveLength(EXCEL_CELL_LIMIT);
  });

  it('does not split a character outside the BMP in two', () => {
    const report: CsvReport = { cutCells: 0 };
    const marker = (fitCell(long(50_000), { cutCells: 0 }) as string).slice(EXCEL_CELL_LIMIT - 200);
    const keep = EXCEL_CELL_LIMIT - (marker.length - marker.indexOf('\n\n[Cut here'));
    // An emoji (two UTF-16 units) across the place of the cut.
    const text = `${'y'.repeat(keep - 1)}😀${'y'.repeat(20_000)}`;
    const cut = fitCell(text, report) as string;
    expect(cut.startsWith(`${'y'.repeat(keep - 1)}\n\n[Cut here`)).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(EXCEL_CELL_LIMIT);
  });
});
