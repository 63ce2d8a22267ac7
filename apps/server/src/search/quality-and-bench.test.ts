import { describe, expect, it } from 'vitest';
import { benchSearch, runSearchQuality } from './index.js';

describe('runSearchQuality', () => {
  it('measures our ranking ahead of the plain FTS5 baselines on the corpus', () => {
    const report = runSearchQuality();
    expect(report.documents).toBeGreaterThanOrEqual(150);
    expect(report.queries).toBeGreaterThanOrEqual(30);
    expect(report.ours.mrrAt10).toBeGreaterThan(report.baseline.mrrAt10);
    expect(report.ours.mrrAt10).toBeGreaterThan(report.baselineOr.mrrAt10);
    expect(report.ours.hitAt3).toBeGreaterThanOrEqual(report.ours.hitAt1);
    // A floor well under today's figures (README): a ranking regression trips it, noise does not.
    expect(report.ours.hitAt3).toBeGreaterThanOrEqual(0.85);
  });
});

describe('benchSearch', () => {
  it('reports latency percentiles for each size', () => {
    const [figures] = benchSearch([300]);
    expect(figures!.documents).toBe(300);
    expect(figures!.queries).toBe(200);
    expect(figures!.p50Ms).toBeGreaterThanOrEqual(0);
    expect(figures!.p95Ms).toBeGreaterThanOrEqual(figures!.p50Ms);
    expect(figures!.fallbackQueries).toBeGreaterThan(0);
  });
});
