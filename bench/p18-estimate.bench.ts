// P18: how the estimate holds. A year of synthetic history is replayed in order, each run estimated (estimate/estimate.ts,
// as `ratchet estimate` and `ratchet run` make it) from the runs before it, then played. Goals: the share of runs whose
// cost ended at or under their p90 between 0.8 and 0.97, and the median |log(actual ÷ p50)| ≤ log 1.5.
//
// How the history is made (seeded, so every run of the bench replays the same year): 8 repositories with 1–3 workflows
// each. A workflow has its own model (Sonnet, Opus or Haiku; a third of them switch model mid-year), its own plans of 1–7
// steps (a run draws its step count around the workflow's typical one), its own retry policy (max_retries 0–5), its own
// tokens per attempt (a factor of 0.3–3 on a typical attempt), and gates that fail its first attempts at 5–60 % and its
// retries at 20–60 %; failures are test failures, compilation errors and timeouts, and now and then an environment
// failure no retry fixes. Each run has a difficulty of its own (log-normal, σ 0.35) on every attempt's tokens and time,
// each attempt a noise of its own (log-normal, σ 0.35). About 2,400 runs over 365 days, the workflows interleaved. A run
// plays out as the engine's policy would (stats/what-if.ts policyStops: a step stops at its retry limit, a class no retry
// fixes ends the run) and costs its tokens at its model's price in resources/pricing.json.
import type { ErrorClass } from '../shared/domain';
import { loadPricing, priceUsage, type Usage } from '../electron/engine/agents/pricing';
import { DEFAULT_PRICING_FILE } from '../electron/engine/engine';
import { BASIS_LIMIT, estimateRun, TYPICAL_ATTEMPT, type PastAttempt, type PastRun } from '../electron/engine/estimate/estimate';
import { resolveChoice, policyStops } from '../electron/engine/stats/what-if';
import { rng } from '../electron/engine/store/testing/varied-history';
import { goalLine } from './measure';

const pricing = loadPricing(DEFAULT_PRICING_FILE);
const price = (model: string, t: Usage) => priceUsage(pricing, model, t);
const MODELS = ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5'].filter((m) => price(m, TYPICAL_ATTEMPT) !== null);
const rand = rng(18);

/** A standard normal draw (Box–Muller). */
const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
const logNormal = (sigma: number) => Math.exp(sigma * normal() - (sigma * sigma) / 2);
const between = (lo: number, hi: number) => lo + rand() * (hi - lo);

interface Flow {
  repo: number;
  key: string;
  models: [string, string];
  switchAt: number;
  steps: number;
  maxRetries: number;
  scale: number;
  firstFail: number;
  retryFail: number;
  history: PastRun[];
}

const flows: Flow[] = [];
for (let repo = 0; repo < 8; repo++) {
  const n = 1 + Math.floor(rand() * 3);
  for (let w = 0; w < n; w++) {
    const model = MODELS[Math.floor(rand() * MODELS.length)] as string;
    const other = rand() < 0.33 ? (MODELS[Math.floor(rand() * MODELS.length)] as string) : model;
    flows.push({
      repo,
      key: `flow-${w}.yml`,
      models: [model, other],
      switchAt: Math.floor(between(90, 270)),
      steps: 1 + Math.floor(rand() * 7),
      maxRetries: Math.floor(rand() * 6),
      scale: Math.exp(between(Math.log(0.3), Math.log(3))),
      firstFail: between(0.05, 0.6),
      retryFail: between(0.2, 0.6),
      history: [],
    });
  }
}

const FAILURES: ErrorClass[] = ['test_failure', 'test_failure', 'test_failure', 'compilation_error', 'timeout'];

/** One run of `flow` on `day`, as the engine's policy plays it. */
function play(flow: Flow, id: string, steps: number, model: string): { run: PastRun; usd: number } {
  const limits = resolveChoice({ maxRetries: flow.maxRetries }).limits;
  const difficulty = logNormal(0.35);
  const attempts: PastAttempt[] = [];
  let usd = 0;
  runLoop: for (let s = 1; s <= steps; s++) {
    const used = new Map<ErrorClass, number>();
    for (let i = 0; ; i++) {
      const k = flow.scale * difficulty * logNormal(0.35);
      const tokens: Usage = {
        inputTokens: Math.round(TYPICAL_ATTEMPT.inputTokens * k),
        outputTokens: Math.round(TYPICAL_ATTEMPT.outputTokens * k),
        cacheReadTokens: Math.round(TYPICAL_ATTEMPT.cacheReadTokens * k),
        cacheWriteTokens: Math.round(TYPICAL_ATTEMPT.cacheWriteTokens * k),
      };
      const cost = price(model, tokens) ?? 0;
      usd += cost;
      const failed = rand() < (i === 0 ? flow.firstFail : flow.retryFail);
      const errorClass: ErrorClass | null = failed ? (rand() < 0.03 ? 'environment' : (FAILURES[Math.floor(rand() * FAILURES.length)] as ErrorClass)) : null;
      attempts.push({
        step: s,
        outcome: failed ? 'failed' : 'passed',
        errorClass,
        tokens,
        costUsd: cost,
        durationMs: TYPICAL_ATTEMPT.durationMs * Math.sqrt(k),
      });
      if (!failed || !errorClass) break;
      const n = (used.get(errorClass) ?? 0) + 1;
      used.set(errorClass, n);
      if (policyStops(errorClass, n, i, limits)) break runLoop;
    }
  }
  return { run: { id, attempts }, usd };
}

const RUNS = 2400;
const store: PastRun[] = [];
const results: Array<{ usd: number; p50: number; p90: number; confidence: string }> = [];
const started = performance.now();
for (let r = 0; r < RUNS; r++) {
  const day = Math.floor((r / RUNS) * 365);
  const flow = flows[Math.floor(rand() * flows.length)] as Flow;
  const model = day < flow.switchAt ? flow.models[0] : flow.models[1];
  const steps = Math.max(1, Math.min(9, flow.steps + Math.round(normal())));
  const limits = resolveChoice({ maxRetries: flow.maxRetries }).limits;
  const est = estimateRun({
    plan: { steps: Array.from({ length: steps }, () => ({ limits, backoff: { base_s: 0, max_s: 0, jitter: 0 } })), model },
    similar: flow.history.slice(0, BASIS_LIMIT),
    store: store.slice(0, BASIS_LIMIT),
    price,
  });
  const { run, usd } = play(flow, `r${r}`, steps, model);
  results.push({ usd, p50: est.usd.p50, p90: est.usd.p90, confidence: est.confidence });
  flow.history.unshift(run);
  store.unshift(run);
}
const ms = performance.now() - started;

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
const measured = results.filter((r) => r.confidence !== 'none');
const within = measured.filter((r) => r.usd <= r.p90).length / measured.length;
const error = median(measured.filter((r) => r.p50 > 0).map((r) => Math.abs(Math.log(r.usd / r.p50))));
const byConfidence = (c: string) => results.filter((r) => r.confidence === c);
console.log(
  `P18: ${RUNS} runs over a year, ${flows.length} workflows in 8 repositories; estimated with history: ${measured.length} (ok ${byConfidence('ok').length}, low ${byConfidence('low').length}), from the plan alone: ${byConfidence('none').length}; ${(ms / RUNS).toFixed(2)} ms per estimate`,
);
let ok = goalLine('P18', 'share of runs whose cost ended at or under their p90', within, 0.8, '≥');
ok = goalLine('P18', 'share of runs whose cost ended at or under their p90', within, 0.97, '≤') && ok;
ok = goalLine('P18', 'median |log(actual ÷ p50)| of the estimated cost', error, Math.round(Math.log(1.5) * 1000) / 1000, '≤') && ok;
for (const c of ['ok', 'low']) {
  const rs = byConfidence(c);
  if (rs.length)
    console.log(
      `  (${c}: ${rs.length} runs, ${((rs.filter((r) => r.usd <= r.p90).length / rs.length) * 100).toFixed(1)} % at or under p90, median |log| ${median(rs.map((r) => Math.abs(Math.log(r.usd / r.p50)))).toFixed(3)})`,
    );
}
process.exit(ok ? 0 : 1);
