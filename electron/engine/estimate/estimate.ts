// The estimate before a run: its cost and wall time as a median and a 90th percentile, from past attempts replayed
// under the run's own retry policy (the what-if engine's rule, stats/what-if.ts policyStops). Pure: history, plan and
// prices in, numbers out; the same inputs give the same estimate (its random draws come from a fixed seed).
import type { AttemptOutcome, ErrorClass, EstimateConfidence, PlanEstimate, RunEstimate, StepEstimate } from '../../../shared/domain';
import type { Usage } from '../agents/pricing';
import { backoffDelayS } from '../policy/backoff';
import type { Limits } from '../policy/policy';
import { policyStops } from '../stats/what-if';
import type { Backoff } from '../workflow/schema';
import { seededRandom } from '../../../shared/seeded-random';

export interface PastAttempt {
  step: number;
  outcome: AttemptOutcome;
  errorClass: ErrorClass | null;
  tokens: Usage;
  /** As recorded (null: a model with no price). */
  costUsd: number | null;
  durationMs: number;
}

/** A finished run, its attempts in order. */
export interface PastRun {
  id: string;
  attempts: readonly PastAttempt[];
}

export interface EstimatePlan {
  /** Each step's retry policy in force (stats/what-if.ts and policy/policy.ts resolve it). */
  steps: ReadonlyArray<{ limits: Limits; backoff: Backoff }>;
  /** The model the run's agent uses: past tokens are priced at its rates. */
  model: string;
}

export interface EstimateInput {
  plan: EstimatePlan;
  /** This repository's and workflow's finished runs, newest first. */
  similar: readonly PastRun[];
  /** The whole store's recent finished runs (any repository), newest first: the basis when `similar` is short. */
  store: readonly PastRun[];
  /** Prices tokens for a model (agents/pricing.ts priceUsage over the table); null: the model has no price. */
  price: (model: string, tokens: Usage) => number | null;
  trials?: number;
  seed?: number;
}

/** Runs of this repository and workflow from which the estimate is `ok`. */
export const ENOUGH_SIMILAR = 5;
/** How many past runs an estimate reads at most (the loader asks the store for no more). */
export const BASIS_LIMIT = 60;
const TRIALS = 2000;

/** With no history: what one attempt typically spends (tokens of a few dozen tool turns) and lasts. */
export const TYPICAL_ATTEMPT: Usage & { durationMs: number } = {
  inputTokens: 30_000,
  outputTokens: 6_000,
  cacheReadTokens: 250_000,
  cacheWriteTokens: 30_000,
  durationMs: 4 * 60_000,
};
/** With no history, how often a first attempt and a retry fail (the rates history is pulled towards when it is short). */
const PRIOR = { first: 0.3, retry: 0.45 };
/** How many attempts' worth of weight the prior rates keep against a run's own (so one lucky run does not say 0 %). */
const PRIOR_WEIGHT = 3;

const FAILED: ReadonlySet<AttemptOutcome> = new Set(['failed', 'error']);
/** Attempts that did not finish say nothing about cost or outcome. */
const usable = (a: PastAttempt) => a.outcome !== 'running' && a.outcome !== 'interrupted';

interface Rates {
  firstFails: number;
  firsts: number;
  retryFails: number;
  retries: number;
}

/** First attempts and retries of each step, and how many of each failed ('red', a test-first step's test attempt, is neither). */
function ratesOf(run: PastRun): Rates {
  const r: Rates = { firstFails: 0, firsts: 0, retryFails: 0, retries: 0 };
  const seen = new Set<number>();
  for (const a of run.attempts) {
    if (!usable(a) || a.outcome === 'red') continue;
    const failed = FAILED.has(a.outcome);
    if (!seen.has(a.step)) {
      seen.add(a.step);
      r.firsts++;
      if (failed) r.firstFails++;
    } else {
      r.retries++;
      if (failed) r.retryFails++;
    }
  }
  return r;
}

function sumRates(runs: readonly PastRun[]): Rates {
  const t: Rates = { firstFails: 0, firsts: 0, retryFails: 0, retries: 0 };
  for (const run of runs) {
    const r = ratesOf(run);
    t.firstFails += r.firstFails;
    t.firsts += r.firsts;
    t.retryFails += r.retryFails;
    t.retries += r.retries;
  }
  return t;
}

const shrunk = (fails: number, n: number, prior: number, weight: number) => (fails + prior * weight) / (n + weight);

/** With no history: a run of typical attempts, from well under to well over the typical (what a plan of unknown steps spends). */
function typicalRun(): PastRun {
  const spread = [0.35, 0.5, 0.65, 0.8, 1, 1.2, 1.5, 2, 2.8];
  const scale = (n: number, k: number) => Math.round(n * k);
  return {
    id: 'typical',
    attempts: spread.map((k, i) => ({
      step: i + 1,
      outcome: 'passed' as const,
      errorClass: null,
      tokens: {
        inputTokens: scale(TYPICAL_ATTEMPT.inputTokens, k),
        outputTokens: scale(TYPICAL_ATTEMPT.outputTokens, k),
        cacheReadTokens: scale(TYPICAL_ATTEMPT.cacheReadTokens, k),
        cacheWriteTokens: scale(TYPICAL_ATTEMPT.cacheWriteTokens, k),
      },
      costUsd: null,
      durationMs: scale(TYPICAL_ATTEMPT.durationMs, k),
    })),
  };
}

/** The value at or under which a share `p` of the sorted values lie (nearest rank). */
function quantile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

/** Which history the estimate rests on, and how sure it may be. */
export function basisOf(similar: readonly PastRun[], store: readonly PastRun[]): { runs: PastRun[]; confidence: EstimateConfidence } {
  const has = (r: PastRun) => r.attempts.some(usable);
  const own = similar.filter(has).slice(0, BASIS_LIMIT);
  if (own.length >= ENOUGH_SIMILAR) return { runs: own, confidence: 'ok' };
  const ids = new Set(own.map((r) => r.id));
  const more = store.filter((r) => has(r) && !ids.has(r.id));
  const runs = [...own, ...more].slice(0, BASIS_LIMIT);
  return runs.length ? { runs, confidence: 'low' } : { runs: [], confidence: 'none' };
}

/**
 * The estimate. Each trial plays the plan once: it takes one past run of the basis (so a trial keeps that run's scale:
 * big tasks spend big on every attempt), draws each attempt's tokens and time from that run's attempts, whether it
 * fails from that run's failure rates pulled towards the basis's (first attempt and retry apart: how many tries a fix
 * took), its error class from the basis's failures, and stops the step or the run where the plan's retry policy would
 * (policyStops). A policy allowing more retries replays more attempts, so it estimates higher. Budgets are left out:
 * the estimate says what the run would cost, so a budget can be compared with it.
 */
export function estimateRun(input: EstimateInput): RunEstimate {
  const { steps: _steps, ...run } = estimatePlan(input);
  return run;
}

/**
 * The estimate with each step's share (a drafted plan lists it per step): the same trials as estimateRun, each step's
 * cost and time counted apart. A step a trial never reached (the run stopped before it) counts as nothing in that trial,
 * so the steps' medians need not add up to the run's.
 */
export function estimatePlan(input: EstimateInput): PlanEstimate {
  const { plan, price } = input;
  const basis = basisOf(input.similar, input.store);
  const runs = basis.runs.length ? basis.runs : [typicalRun()];
  const rand = seededRandom(input.seed ?? 0x5eed);
  const total = sumRates(runs);
  const prior = {
    first: shrunk(total.firstFails, total.firsts, PRIOR.first, PRIOR_WEIGHT),
    retry: shrunk(total.retryFails, total.retries, PRIOR.retry, PRIOR_WEIGHT),
  };
  const classes: ErrorClass[] = runs.flatMap((r) => r.attempts.filter((a) => usable(a) && FAILED.has(a.outcome)).map((a) => a.errorClass ?? 'unknown'));
  if (!classes.length) classes.push('test_failure');
  const prepared = runs.map((r) => {
    const rates = ratesOf(r);
    return {
      pool: r.attempts.filter(usable).map((a) => ({ usd: price(plan.model, a.tokens) ?? a.costUsd ?? 0, ms: Math.max(0, a.durationMs) })),
      first: shrunk(rates.firstFails, rates.firsts, prior.first, PRIOR_WEIGHT),
      retry: shrunk(rates.retryFails, rates.retries, prior.retry, PRIOR_WEIGHT),
    };
  });

  const trials = input.trials ?? TRIALS;
  const usd: number[] = [];
  const ms: number[] = [];
  const stepUsd = plan.steps.map(() => new Float64Array(trials));
  const stepMs = plan.steps.map(() => new Float64Array(trials));
  for (let t = 0; t < trials; t++) {
    const run = prepared[Math.floor(rand() * prepared.length)]!;
    let cost = 0;
    let time = 0;
    let over = false;
    for (const [k, step] of plan.steps.entries()) {
      const used = new Map<ErrorClass, number>();
      const before = { cost, time };
      for (let i = 0; ; i++) {
        const a = run.pool[Math.floor(rand() * run.pool.length)]!;
        cost += a.usd;
        time += a.ms;
        if (rand() >= (i === 0 ? run.first : run.retry)) break;
        const c = classes[Math.floor(rand() * classes.length)]!;
        const n = (used.get(c) ?? 0) + 1;
        used.set(c, n);
        if (policyStops(c, n, i, step.limits)) {
          over = true;
          break;
        }
        time += backoffDelayS(step.backoff, n, rand) * 1000;
      }
      stepUsd[k]![t] = cost - before.cost;
      stepMs[k]![t] = time - before.time;
      if (over) break;
    }
    usd.push(cost);
    ms.push(time);
  }
  usd.sort((x, y) => x - y);
  ms.sort((x, y) => x - y);
  const dollars = (n: number) => Math.round(n * 10_000) / 10_000;
  const minutes = (n: number) => Math.round((n / 60_000) * 10) / 10;
  const step = (u: Float64Array, m: Float64Array): StepEstimate => {
    const su = Array.from(u).sort((x, y) => x - y);
    const sm = Array.from(m).sort((x, y) => x - y);
    return {
      usd: { p50: dollars(quantile(su, 0.5)), p90: dollars(quantile(su, 0.9)) },
      minutes: { p50: minutes(quantile(sm, 0.5)), p90: minutes(quantile(sm, 0.9)) },
    };
  };
  return {
    usd: { p50: dollars(quantile(usd, 0.5)), p90: dollars(quantile(usd, 0.9)) },
    minutes: { p50: minutes(quantile(ms, 0.5)), p90: minutes(quantile(ms, 0.9)) },
    basis: { runs: basis.runs.length },
    confidence: basis.confidence,
    steps: plan.steps.map((_, k) => step(stepUsd[k]!, stepMs[k]!)),
  };
}
