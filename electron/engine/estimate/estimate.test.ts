import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, type Limits } from '../policy/policy';
import type { Usage } from '../agents/pricing';
import { estimatePlan, estimateRun, type EstimatePlan, type PastAttempt, type PastRun } from './estimate';

const NO_BACKOFF = { base_s: 0, max_s: 0, jitter: 0 };
const plan = (steps: number, limits: Partial<Limits> = {}, model = 'm'): EstimatePlan => ({
  steps: Array.from({ length: steps }, () => ({ limits: { ...DEFAULT_LIMITS, ...limits }, backoff: NO_BACKOFF })),
  model,
});
/** $1 per thousand output tokens for model `m`, $5 for `big`; nothing else has a price. */
const price = (model: string, t: Usage) => (model === 'm' ? t.outputTokens / 1000 : model === 'big' ? (5 * t.outputTokens) / 1000 : null);
const attempt = (step: number, outcome: PastAttempt['outcome'], outputTokens: number, minutes = 2): PastAttempt => ({
  step,
  outcome,
  errorClass: outcome === 'failed' ? 'test_failure' : null,
  tokens: { inputTokens: 0, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: outputTokens / 1000,
  durationMs: minutes * 60_000,
});
/** A run of `steps` steps, each passing first time, each attempt costing `usd`. */
const clean = (id: string, steps: number, usd: number): PastRun => ({
  id,
  attempts: Array.from({ length: steps }, (_, i) => attempt(i + 1, 'passed', usd * 1000)),
});
/** A run whose every step fails `fails` times and then passes. */
const bumpy = (id: string, steps: number, usd: number, fails = 1): PastRun => ({
  id,
  attempts: Array.from({ length: steps }, (_, i) => [
    ...Array.from({ length: fails }, () => attempt(i + 1, 'failed', usd * 1000)),
    attempt(i + 1, 'passed', usd * 1000),
  ]).flat(),
});

describe('estimateRun', () => {
  it('with no history, estimates from the plan, the model price and typical tokens, and says so (confidence none, 0 runs)', () => {
    const one = estimateRun({ plan: plan(1), similar: [], store: [], price });
    const three = estimateRun({ plan: plan(3), similar: [], store: [], price });
    expect(one.confidence).toBe('none');
    expect(one.basis.runs).toBe(0);
    expect(one.usd.p50).toBeGreaterThan(0);
    expect(one.usd.p90).toBeGreaterThan(one.usd.p50);
    expect(one.minutes.p50).toBeGreaterThan(0);
    expect(three.usd.p50).toBeGreaterThan(2 * one.usd.p50);
    expect(estimateRun({ plan: plan(1, {}, 'big'), similar: [], store: [], price }).usd.p50).toBeGreaterThan(4 * one.usd.p50);
  });

  it('after five runs of the same workflow, the median is within a third of their median cost (confidence ok)', () => {
    const costs = [0.3, 0.4, 0.42, 0.5, 0.65];
    const similar = costs.map((c, i) => clean(`r${i}`, 2, c / 2));
    const est = estimateRun({ plan: plan(2), similar, store: [clean('other', 2, 20)], price });
    expect(est.confidence).toBe('ok');
    expect(est.basis.runs).toBe(5);
    expect(Math.abs(est.usd.p50 - 0.42) / 0.42).toBeLessThan(1 / 3);
    // A sixth run like them ends inside its range.
    expect(0.45).toBeLessThanOrEqual(est.usd.p90);
    expect(est.minutes.p50).toBeCloseTo(4, 0);
  });

  it('with fewer runs of this workflow, leans on the whole store and says the confidence is low', () => {
    const est = estimateRun({ plan: plan(2), similar: [clean('a', 2, 0.2)], store: [clean('a', 2, 0.2), clean('b', 2, 0.3), clean('c', 2, 0.25)], price });
    expect(est.confidence).toBe('low');
    expect(est.basis.runs).toBe(3);
  });

  it('replays the retry policy over the failure rates: more retries allowed estimates higher, none allowed lower', () => {
    const similar = Array.from({ length: 8 }, (_, i) => (i % 2 ? bumpy(`b${i}`, 3, 0.1, 3) : clean(`c${i}`, 3, 0.1)));
    const none = estimateRun({ plan: plan(3, { test_failure: 0 }), similar, store: [], price });
    const some = estimateRun({ plan: plan(3, { test_failure: 1 }), similar, store: [], price });
    const many = estimateRun({ plan: plan(3, { test_failure: 6 }), similar, store: [], price });
    expect(some.usd.p90).toBeGreaterThan(none.usd.p90);
    expect(many.usd.p90).toBeGreaterThan(some.usd.p90);
    expect(many.usd.p50).toBeGreaterThanOrEqual(some.usd.p50);
    expect(many.minutes.p90).toBeGreaterThan(none.minutes.p90);
  });

  it("prices past tokens at the plan's model rates", () => {
    const similar = Array.from({ length: 5 }, (_, i) => clean(`r${i}`, 1, 0.2));
    const cheap = estimateRun({ plan: plan(1), similar, store: [], price });
    const dear = estimateRun({ plan: plan(1, {}, 'big'), similar, store: [], price });
    expect(dear.usd.p50).toBeCloseTo(5 * cheap.usd.p50, 4);
    // A model with no price: the recorded costs.
    expect(estimateRun({ plan: plan(1, {}, 'unpriced'), similar, store: [], price }).usd.p50).toBeCloseTo(cheap.usd.p50, 4);
  });

  it('gives the same estimate for the same inputs, and leaves unfinished attempts out', () => {
    const similar = Array.from({ length: 6 }, (_, i) => bumpy(`r${i}`, 2, 0.1 + i / 100));
    expect(estimateRun({ plan: plan(2), similar, store: [], price })).toEqual(estimateRun({ plan: plan(2), similar, store: [], price }));
    const cut = { id: 'cut', attempts: [attempt(1, 'interrupted', 50_000), attempt(1, 'running', 50_000)] };
    expect(estimateRun({ plan: plan(1), similar: [cut], store: [], price }).confidence).toBe('none');
  });

  it("gives each step its share from the same trials: a step whose retries the policy allows costs more, and the run's estimate is unchanged", () => {
    const similar = Array.from({ length: 8 }, (_, i) => (i % 2 ? bumpy(`b${i}`, 2, 0.1, 2) : clean(`c${i}`, 2, 0.1)));
    const steps: EstimatePlan = {
      steps: [
        { limits: { ...DEFAULT_LIMITS, test_failure: 0 }, backoff: NO_BACKOFF },
        { limits: { ...DEFAULT_LIMITS, test_failure: 6 }, backoff: NO_BACKOFF },
      ],
      model: 'm',
    };
    const est = estimatePlan({ plan: steps, similar, store: [], price });
    const { steps: shares, ...run } = est;
    expect(run).toEqual(estimateRun({ plan: steps, similar, store: [], price }));
    expect(shares).toHaveLength(2);
    // One attempt of $0.10 at least for the first step; its p90 is one attempt (no retry allowed).
    expect(shares[0]!.usd.p50).toBeCloseTo(0.1, 4);
    expect(shares[0]!.usd.p90).toBeCloseTo(0.1, 4);
    expect(shares[0]!.minutes.p50).toBeCloseTo(2, 1);
    // The second step is reached only when the first passes, and retries up to six times when it is.
    expect(shares[1]!.usd.p90).toBeGreaterThan(shares[0]!.usd.p90);
    expect(shares[1]!.minutes.p90).toBeGreaterThan(shares[0]!.minutes.p90);
    for (const s of shares) expect(s.usd.p90).toBeLessThanOrEqual(run.usd.p90);
  });
});
