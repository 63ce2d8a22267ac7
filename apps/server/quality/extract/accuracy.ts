import type { ExtractionEngine } from '../../src/extract/index.js';
import type { ExtractionCase } from './fixture-cases.js';

/** How one field of one case came out. */
export interface FieldResult {
  /** Dotted path of the field (`salary.min`); arrays are compared whole. */
  path: string;
  expected: unknown;
  actual: unknown;
  correct: boolean;
}

/** The outcome of one case. */
export interface CaseResult {
  file: string;
  ok: boolean;
  error?: string | undefined;
  fields: FieldResult[];
  correct: number;
  total: number;
}

/** Correct and total counts for one field name across cases. */
export interface FieldTally {
  correct: number;
  total: number;
}

/** Everything {@link measureAccuracy} measured. */
export interface AccuracyReport {
  cases: CaseResult[];
  /** By field path, across every case that has it. */
  fields: Record<string, FieldTally>;
  /** All fields of all cases. */
  overall: FieldTally & { accuracy: number };
  /** Cases the engine answered with an error. */
  failedCases: number;
  /** Pages per second through the engine (extraction only, not loading). */
  pagesPerSecond: number;
}

/**
 * Runs every case through an engine and compares each field with the
 * expected object. Fields are the leaf paths of the expected and the actual
 * object together (a field absent from both is not counted; one the engine
 * invented counts as wrong). Comparison after normalisation: numbers equal
 * within 0.5 %, strings ignoring case and whitespace, dates the same instant
 * (or the same day when either has no time), arrays as sets of normalised items.
 */
export async function measureAccuracy(
  cases: ExtractionCase[],
  engine: ExtractionEngine,
): Promise<AccuracyReport> {
  const results: CaseResult[] = [];
  const fields: Record<string, FieldTally> = {};
  let elapsed = 0;
  for (const c of cases) {
    const started = performance.now();
    const outcome = await engine.extract({
      url: `https://fixtures.example/${c.file}`,
      html: c.html,
      schema: c.schema,
      query: c.query,
    });
    elapsed += performance.now() - started;
    const actual = outcome.ok ? outcome.data : {};
    const expectedLeaves = leaves(c.expected);
    const actualLeaves = leaves(actual);
    const paths = [...new Set([...expectedLeaves.keys(), ...actualLeaves.keys()])];
    const fieldResults = paths.map((path) => {
      const expected = expectedLeaves.get(path);
      const got = actualLeaves.get(path);
      return { path, expected, actual: got, correct: sameValue(expected, got) };
    });
    for (const f of fieldResults) {
      const tally = fields[f.path] ?? { correct: 0, total: 0 };
      tally.total++;
      if (f.correct) tally.correct++;
      fields[f.path] = tally;
    }
    results.push({
      file: c.file,
      ok: outcome.ok,
      error: outcome.ok ? undefined : outcome.error.message,
      fields: fieldResults,
      correct: fieldResults.filter((f) => f.correct).length,
      total: fieldResults.length,
    });
  }
  const correct = results.reduce((n, r) => n + r.correct, 0);
  const total = results.reduce((n, r) => n + r.total, 0);
  return {
    cases: results,
    fields,
    overall: { correct, total, accuracy: total === 0 ? 0 : correct / total },
    failedCases: results.filter((r) => !r.ok).length,
    pagesPerSecond: elapsed === 0 ? 0 : (cases.length * 1000) / elapsed,
  };
}

/** Leaf paths of an object: nested objects are walked, arrays and scalars are leaves. */
function leaves(
  value: Record<string, unknown>,
  prefix = '',
  out = new Map<string, unknown>(),
): Map<string, unknown> {
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      leaves(v as Record<string, unknown>, path, out);
    else out.set(path, v);
  }
  return out;
}

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** A canonical string for a value, used for set comparison of array items. */
function normalise(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'number') return `n:${Number(value.toPrecision(3))}`;
  if (typeof value === 'string') return `s:${value.replace(/\s+/g, ' ').trim().toLowerCase()}`;
  if (Array.isArray(value)) return `[${value.map(normalise).sort().join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${k}=${normalise(v)}`).join(',')}}`;
  }
  return String(value);
}

/** Whether two field values are the same after normalisation (see {@link measureAccuracy}). */
export function sameValue(expected: unknown, actual: unknown): boolean {
  if (expected === undefined || actual === undefined) return expected === actual;
  if (expected === null || actual === null) return expected === actual;
  if (typeof expected === 'number' && typeof actual === 'number') {
    const scale = Math.max(Math.abs(expected), Math.abs(actual));
    return scale === 0 || Math.abs(expected - actual) <= 0.005 * scale;
  }
  if (typeof expected === 'string' && typeof actual === 'string') {
    const a = ISO_DATE.exec(expected.trim());
    const b = ISO_DATE.exec(actual.trim());
    if (a && b) {
      if (a[2] && b[2] && a[5] && b[5]) return Date.parse(expected) === Date.parse(actual);
      return a[1] === b[1];
    }
    return normalise(expected) === normalise(actual);
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return false;
    const left = expected.map(normalise).sort();
    const right = actual.map(normalise).sort();
    return left.every((x, i) => x === right[i]);
  }
  return normalise(expected) === normalise(actual);
}

/** The report as a plain-text table: one line per case, then per field, then overall. */
export function formatAccuracyReport(report: AccuracyReport): string {
  const pct = (t: FieldTally) =>
    t.total === 0 ? '  -  ' : `${((100 * t.correct) / t.total).toFixed(1).padStart(5)}%`;
  const lines = ['case                                               fields   accuracy  misses'];
  for (const c of report.cases) {
    const misses = c.ok ? c.fields.filter((f) => !f.correct).map((f) => f.path) : [`ERROR: ${c.error}`];
    lines.push(
      `${c.file.padEnd(50)} ${`${c.correct}/${c.total}`.padStart(6)}   ${pct(c)}   ${misses.join(', ')}`,
    );
  }
  lines.push('', 'field                      correct/total  accuracy');
  for (const [path, t] of Object.entries(report.fields).sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`${path.padEnd(26)} ${`${t.correct}/${t.total}`.padStart(13)}   ${pct(t)}`);
  }
  lines.push(
    '',
    `overall: ${report.overall.correct}/${report.overall.total} fields = ${(100 * report.overall.accuracy).toFixed(1)}%, ` +
      `${report.failedCases} failed case(s), ${report.pagesPerSecond.toFixed(0)} pages/s`,
  );
  return lines.join('\n');
}
