import { describe, expect, it } from 'vitest';
import { compileSchema, DefaultExtractionEngine, type ExtractionEngine } from '../../src/extract/index.js';
import { formatAccuracyReport, measureAccuracy, sameValue } from './accuracy.js';
import { loadExtractionCases } from './fixture-cases.js';

/**
 * Floor of the default engine's overall field accuracy on the fixtures. It
 * measured 95.6 % (218/228 fields) with the evidence-based engine (98.2 %
 * before, when it also took weak matches and bent values to fit: the misses
 * now are values named only loosely, which it leaves out rather than guess).
 * The floor sits under it so that a regression fails the test. The fixtures
 * were written alongside the engine, so this is not a figure for unseen pages.
 */
const ACCURACY_FLOOR = 0.94;

describe('extraction fixtures', () => {
  const cases = loadExtractionCases();

  it('has at least 30 cases, each with a valid schema and an expected object that satisfies it', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    for (const c of cases) {
      expect(compileSchema(c.schema).ok, c.file).toBe(true);
      expect(c.html.length, c.file).toBeGreaterThan(200);
    }
  });

  it('the default engine reaches its accuracy floor', async () => {
    const report = await measureAccuracy(cases, new DefaultExtractionEngine());
    console.log(formatAccuracyReport(report));
    expect(report.cases).toHaveLength(cases.length);
    expect(report.overall.accuracy).toBeGreaterThanOrEqual(ACCURACY_FLOOR);
    expect(report.failedCases).toBe(0);
  });
});

describe('measureAccuracy', () => {
  it('counts fields that are wrong, missing or invented', async () => {
    const fake: ExtractionEngine = {
      extract: async () => ({
        ok: true,
        data: { a: 'X ', b: 2, extra: 1, nested: { c: '2024-01-01T10:00:00Z' } },
      }),
    };
    const report = await measureAccuracy(
      [
        {
          file: 'f.html',
          html: '',
          schema: { type: 'object', properties: {} },
          expected: { a: 'x', b: 3, missing: 'm', nested: { c: '2024-01-01T11:00:00+01:00' } },
        },
      ],
      fake,
    );
    expect(report.overall).toEqual({ correct: 2, total: 5, accuracy: 0.4 });
    expect(report.fields.a).toEqual({ correct: 1, total: 1 });
    expect(report.fields['nested.c']).toEqual({ correct: 1, total: 1 });
    expect(report.fields.extra).toEqual({ correct: 0, total: 1 });
  });
});

describe('sameValue', () => {
  it('normalises numbers, strings, dates and arrays', () => {
    expect(sameValue(100, 100.4)).toBe(true);
    expect(sameValue(100, 101)).toBe(false);
    expect(sameValue('Hello  World', 'hello world')).toBe(true);
    expect(sameValue('2024-03-05', '2024-03-05T00:00:00Z')).toBe(true);
    expect(sameValue('2024-03-05T10:00:00Z', '2024-03-05T12:00:00+02:00')).toBe(true);
    expect(sameValue('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z')).toBe(false);
    expect(sameValue(['b', 'A'], ['a', 'B'])).toBe(true);
    expect(sameValue(['a'], ['a', 'b'])).toBe(false);
    expect(sameValue([{ x: 1 }], [{ x: 1 }])).toBe(true);
    expect(sameValue(null, undefined)).toBe(false);
  });
});
