import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { inInputOrder } from '@webdata/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Result } from '../runs/run-types.js';
import { parseCsv } from '../test-support/csv.js';
import { makeResult } from '../test-support/runs.js';
import { type ResultsPager, readAllResults } from './read-all-results.js';
import { type ResultsFormat, resultsFileText } from './results-file.js';
import { saveResultsFile } from './save-results-file.js';

/** A service listing `results` `limit` at a time, in the order given (the order pages finished). */
function pagerOf(results: readonly Result[], onRequest?: (page: number) => void): ResultsPager {
  let requests = 0;
  return {
    async resultsPage(_runId, query) {
      onRequest?.(requests++);
      const start = Number(query.cursor ?? 0);
      const end = start + (query.limit ?? 50);
      return { data: results.slice(start, end), next_cursor: end < results.length ? String(end) : null };
    },
  };
}

describe('saveResultsFile', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'webdata-save-test-'));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  const urls = Array.from({ length: 7 }, (_, i) => `https://shop.example/p/${i}`);
  /** Listed in the order they finished, with a page the crawl found, and fields that vary from one to the next. */
  const listed: Result[] = [5, 2, 'found-1', 0, 6, 1, 3, 'found-2', 4].map((which, index) => {
    const url = typeof which === 'number' ? urls[which]! : `https://shop.example/${which}`;
    return {
      ...makeResult('run_1', `res_${index}`, { url }),
      data:
        typeof which === 'number' ? { name: `P${which}`, [`only${which % 3}`]: which, tags: ['a'] } : null,
      content: index === 3 ? null : `# Page ${String(which)}\n\nsome, "quoted" text`,
    };
  });

  for (const format of ['json', 'jsonl', 'csv'] as ResultsFormat[]) {
    it(`writes ${format} as the whole list in the order of the URLs would be written, read 2 at a time`, async () => {
      const target = join(folder, `out.${format}`);
      const { count } = await saveResultsFile({
        read: (keep) => readAllResults(pagerOf(listed), 'run_1', { pageSize: 2, keep }),
        urls,
        format,
        withContent: true,
        target,
      });
      expect(count).toBe(listed.length);
      const ordered = inInputOrder(listed, urls).map(({ content: _content, ...rest }) => rest);
      const contentOf = (result: Result) => listed.find((each) => each.id === result.id)?.content;
      expect(readFileSync(target, 'utf8')).toBe(resultsFileText(ordered, format, contentOf));
      expect(readdirSync(folder)).toEqual([`out.${format}`]);
    });
  }

  it("cuts a CSV's cells to what Excel holds and says how many; JSON Lines keeps them whole", async () => {
    const long = `# Long page\n\n${'word '.repeat(20_000)}`;
    const crawl = listed.map((result, index) => ({
      ...result,
      content: index === 2 ? long : result.content,
    }));
    const csvFile = join(folder, 'out.csv');
    const saved = await saveResultsFile({
      read: (keep) => readAllResults(pagerOf(crawl), 'run_1', { pageSize: 2, keep }),
      urls,
      format: 'csv',
      withContent: true,
      target: csvFile,
    });
    expect(saved).toEqual({ count: crawl.length, cutCells: 1 });
    const rows = parseCsv(readFileSync(csvFile, 'utf8'));
    expect(rows).toHaveLength(crawl.length + 1);
    const contentAt = rows[0]!.indexOf('content');
    const cut = rows.find((row) => row[0] === crawl[2]!.url)![contentAt]!;
    expect(cut).toHaveLength(32_767);
    expect(cut).toMatch(/^# Long page\n\nword word /);
    expect(cut).toMatch(/\[Cut here: Excel holds 32,767 characters a cell, this one had 100,013\. .*\]$/);
    for (const row of rows) {
      expect(row).toHaveLength(rows[0]!.length);
      for (const cell of row) expect(cell.length).toBeLessThanOrEqual(32_767);
    }
    const jsonl = join(folder, 'out.jsonl');
    const whole = await saveResultsFile({
      read: (keep) => readAllResults(pagerOf(crawl), 'run_1', { pageSize: 2, keep }),
      urls,
      format: 'jsonl',
      withContent: true,
      target: jsonl,
    });
    expect(whole.cutCells).toBe(0);
    const records = readFileSync(jsonl, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.find((record) => record.url === crawl[2]!.url).content).toBe(long);
  });

  it('writes an extraction (no contents) as the service sent each result', async () => {
    const extraction = listed.map(({ content: _content, ...rest }) => rest);
    const target = join(folder, 'out.jsonl');
    await saveResultsFile({
      read: (keep) => readAllResults(pagerOf(extraction), 'run_1', { pageSize: 4, keep }),
      urls,
      format: 'jsonl',
      withContent: false,
      target,
    });
    expect(readFileSync(target, 'utf8')).toBe(resultsFileText(inInputOrder(extraction, urls), 'jsonl'));
    expect(readFileSync(target, 'utf8')).not.toContain('"content"');
  });

  it('writes an empty run as an empty array, and a CSV with its header alone', async () => {
    for (const [format, text] of [
      ['json', '[]\n'],
      ['csv', '\uFEFFurl,status,title,error\r\n'],
    ] as const) {
      const target = join(folder, `empty.${format}`);
      await saveResultsFile({
        read: (keep) => readAllResults(pagerOf([]), 'run_1', { keep }),
        urls,
        format,
        withContent: false,
        target,
      });
      expect(readFileSync(target, 'utf8')).toBe(text);
    }
  });

  it('leaves the chosen file as it was, and nothing beside it, while reading and when a read fails', async () => {
    const target = join(folder, 'kept.csv');
    writeFileSync(target, 'the file from before');
    const seen: string[][] = [];
    const failing = pagerOf(listed, (page) => {
      seen.push(readdirSync(folder));
      expect(readFileSync(target, 'utf8')).toBe('the file from before');
      if (page === 2) throw new Error('the service went away');
    });
    await expect(
      saveResultsFile({
        read: (keep) => readAllResults(failing, 'run_1', { pageSize: 2, keep }),
        urls,
        format: 'csv',
        withContent: true,
        target,
      }),
    ).rejects.toThrow('the service went away');
    expect(seen).toEqual([['kept.csv'], ['kept.csv'], ['kept.csv']]);
    expect(readdirSync(folder)).toEqual(['kept.csv']);
    expect(readFileSync(target, 'utf8')).toBe('the file from before');
    // Then a save that goes through replaces it, and leaves no partial file.
    await saveResultsFile({
      read: (keep) => readAllResults(pagerOf(listed), 'run_1', { pageSize: 2, keep }),
      urls,
      format: 'csv',
      withContent: true,
      target,
    });
    expect(readFileSync(target, 'utf8')).toMatch(/^\uFEFFurl,status,title,error,data\.name/);
    expect(readdirSync(folder)).toEqual(['kept.csv']);
  });

  it('removes its temporary folder, whatever happens', async () => {
    const spills = mkdtempSync(join(tmpdir(), 'webdata-spills-'));
    try {
      await saveResultsFile({
        read: (keep) => readAllResults(pagerOf(listed), 'run_1', { pageSize: 2, keep }),
        urls,
        format: 'json',
        withContent: true,
        target: join(folder, 'a.json'),
        tmpParent: spills,
      });
      await expect(
        saveResultsFile({
          read: async () => {
            throw new Error('cancelled');
          },
          urls,
          format: 'json',
          withContent: true,
          target: join(folder, 'b.json'),
          tmpParent: spills,
        }),
      ).rejects.toThrow('cancelled');
      expect(readdirSync(spills)).toEqual([]);
      expect(existsSync(join(folder, 'b.json'))).toBe(false);
    } finally {
      rmSync(spills, { recursive: true, force: true });
    }
  });

  it('holds about one page of results, not all of them: 6,000 results of 10 KB each (60 MB) saved as CSV', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const pages = 30;
    const perPage = 200;
    const many = Array.from({ length: pages * perPage }, (_, i) => `https://shop.example/p/${i}`);
    // Each page made as it is asked for (the service's answer), its fields unique text: 2 MB a page.
    let peak = 0;
    const api: ResultsPager = {
      async resultsPage(_runId, query) {
        peak = Math.max(peak, heap() - baseline);
        const start = Number(query.cursor ?? 0);
        // Listed from the last URL back, so that the file's order is not the order read.
        const data = Array.from({ length: perPage }, (_, i) => {
          const index = many.length - 1 - (start + i);
          return {
            ...makeResult('run_1', `res_${index}`, { url: many[index]! }),
            data: { text: randomBytes(5_000).toString('hex') },
          };
        });
        const end = start + perPage;
        return { data, next_cursor: end < many.length ? String(end) : null };
      },
    };
    const target = join(folder, 'many.csv');
    const baseline = heap();
    const { count } = await saveResultsFile({
      read: (keep) => readAllResults(api, 'run_1', { pageSize: perPage, keep }),
      urls: many,
      format: 'csv',
      withContent: false,
      target,
    });
    expect(count).toBe(pages * perPage);
    // All of it held would be 60 MB and more (JavaScript objects around the text): 29 pages before the last.
    expect(peak).toBeLessThan(16 * 1024 * 1024);
    const lines = readFileSync(target, 'utf8').split('\r\n');
    expect(lines).toHaveLength(pages * perPage + 2);
    expect(lines[1]?.startsWith(`${many[0]},succeeded,`)).toBe(true);
    expect(lines.at(-2)?.startsWith(`${many.at(-1)},succeeded,`)).toBe(true);
  }, 60_000);
});
