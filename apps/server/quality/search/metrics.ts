/** One judged question (questions.json). */
export interface JudgedQuestion {
  id: string;
  question: string;
  /** Judged ids of the pages that answer it (`python/library/json.html`). */
  relevant: string[];
  /** `dev` may be tuned on; `held` never is. */
  split: 'dev' | 'held';
}

/** Ranking figures over a set of questions. */
export interface QualityFigures {
  questions: number;
  /** Share of questions whose first hit is relevant. */
  hitAt1: number;
  /** Share of questions with a relevant page among the first three hits. */
  hitAt3: number;
  /** Mean reciprocal rank of the first relevant hit within the first ten (0 when none). */
  mrrAt10: number;
}

/** Position (0-based) of the first relevant id among the first ten, or -1. */
export function firstRelevant(ranked: readonly (string | null)[], relevant: readonly string[]): number {
  return ranked.slice(0, 10).findIndex((id) => id !== null && relevant.includes(id));
}

/** hit@1, hit@3 and MRR@10 from the first-relevant positions of each question. */
export function figuresOf(positions: readonly number[]): QualityFigures {
  const n = positions.length;
  const share = (count: number) => (n === 0 ? 0 : count / n);
  return {
    questions: n,
    hitAt1: share(positions.filter((p) => p === 0).length),
    hitAt3: share(positions.filter((p) => p >= 0 && p < 3).length),
    mrrAt10: share(positions.reduce((sum, p) => sum + (p >= 0 ? 1 / (p + 1) : 0), 0)),
  };
}

/** The p-th quantile (0..1) of some numbers (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
}
