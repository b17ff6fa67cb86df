import { describe, expect, it } from 'vitest';
import { budgetWarning, estimateLine, estimateVsActual } from './estimate-text';

const est = (p50: number, p90: number, runs: number, confidence: 'none' | 'low' | 'ok', min = { p50: 6.2, p90: 13.8 }) => ({
  usd: { p50, p90 },
  minutes: min,
  basis: { runs },
  confidence,
});

describe('estimate text', () => {
  it('reads as the issue words it, cents for amounts people compare', () => {
    expect(estimateLine(est(0.4013, 1.0987, 23, 'ok'))).toBe('about $0.40, up to $1.10 · 6–14 min · from 23 runs like this one');
    expect(estimateLine(est(0.004, 0.011, 0, 'none', { p50: 0.2, p90: 0.5 }))).toBe(
      'about $0.0040, up to $0.0110 · under 1 min · from the plan alone (no runs yet): a rough guess',
    );
    expect(estimateLine(est(3, 9, 1, 'low', { p50: 150, p90: 300 }))).toContain('3–5 h · from 1 run, few of them like this one');
  });

  it('sets the estimate against what the run spent', () => {
    expect(estimateVsActual(est(0.4, 1.1, 5, 'ok'), 0.31, true)).toBe('about $0.40, up to $1.10 · 6–14 min · spent $0.31, within it');
    expect(estimateVsActual(est(0.4, 1.1, 5, 'ok'), 0.31, false)).toContain('spent $0.31, so far');
    expect(estimateVsActual(est(0.4, 1.1, 5, 'ok'), 1.5, true)).toContain('spent $1.50, over its 90th percentile');
    expect(estimateVsActual(est(0.4, 1.1, 5, 'ok'), null, true)).toContain('spent: unknown');
  });

  it('warns when the task budget is below the 90th percentile, and only then', () => {
    expect(budgetWarning(est(0.4, 1.1, 5, 'ok'), 1)).toContain('$1.10');
    expect(budgetWarning(est(0.4, 1.1, 5, 'ok'), 1.1)).toBeNull();
    expect(budgetWarning(est(0.4, 1.1, 5, 'ok'), null)).toBeNull();
  });
});
