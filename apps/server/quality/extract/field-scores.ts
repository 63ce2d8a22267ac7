/**
 * Scoring of text fields as the shared corpora's README asks: per field,
 * normalized exact match (trimmed, whitespace collapsed, case-insensitive,
 * null and absent counted as the empty string) and token F1, plus how often
 * null came back where the reference is null.
 */

/** The comparable form of a value: trimmed, whitespace collapsed, lower case; null/absent/non-text → ''. */
export function normalizeField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(/\s+/gu, ' ').trim().toLowerCase();
}

/** Tokens of a normalized value: runs of letters and digits (each CJK character one token). */
export function fieldTokens(value: unknown): string[] {
  const text = normalizeField(value);
  return text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu) ?? [];
}

/** Token F1 of two values (1 when both are empty). */
export function tokenF1(expected: unknown, actual: unknown): number {
  const want = fieldTokens(expected);
  const got = fieldTokens(actual);
  if (want.length === 0 && got.length === 0) return 1;
  if (want.length === 0 || got.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const t of want) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of got) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      common++;
      counts.set(t, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / got.length;
  const recall = common / want.length;
  return (2 * precision * recall) / (precision + recall);
}

/** The figures of one field over a set of pages. */
export interface FieldFigures {
  pages: number;
  /** Share of pages whose value matches after normalisation. */
  exact: number;
  /** Mean token F1. */
  f1: number;
  /** Pages whose reference is null (or empty). */
  absent: number;
  /** Of those, how many came back null (or empty). */
  nullWhenAbsent: number;
}

/** One page's value of one field, with the reference. */
export interface FieldPair {
  expected: unknown;
  actual: unknown;
}

/** Figures of one field over its pairs. */
export function scoreField(pairs: FieldPair[]): FieldFigures {
  let exact = 0;
  let f1 = 0;
  let absent = 0;
  let nullWhenAbsent = 0;
  for (const { expected, actual } of pairs) {
    if (normalizeField(expected) === normalizeField(actual)) exact++;
    f1 += tokenF1(expected, actual);
    if (normalizeField(expected) === '') {
      absent++;
      if (normalizeField(actual) === '') nullWhenAbsent++;
    }
  }
  const n = pairs.length;
  return { pages: n, exact: n ? exact / n : 0, f1: n ? f1 / n : 0, absent, nullWhenAbsent };
}
