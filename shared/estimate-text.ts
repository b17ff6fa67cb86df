// An estimate as people read it, the same in the terminal and the app: "about $0.40, up to $1.10 · 6–14 min · from 23 similar runs".
import type { RunEstimate, StepEstimate } from './domain';
import type { EstimateRecord } from './contract/stats';
import { money } from './money';

/** Cents for amounts people compare (a dime and up); the small ones keep money()'s digits, so $0.004 is not "$0.00". */
export function estimateMoney(usd: number): string {
  return money(usd >= 0.1 ? Math.round(usd * 100) / 100 : usd);
}

/** `6–14 min`, `under 1 min`, `1–2 h`: the median and 90th percentile of the wall time. */
export function estimateMinutes(m: RunEstimate['minutes']): string {
  if (m.p90 < 1) return 'under 1 min';
  if (m.p50 >= 120) return `${Math.round(m.p50 / 60)}–${Math.max(Math.round(m.p50 / 60), Math.round(m.p90 / 60))} h`;
  const lo = Math.max(1, Math.round(m.p50));
  return `${lo}–${Math.max(lo, Math.round(m.p90))} min`;
}

/** What the estimate rests on, in words. */
export function estimateBasis(e: Pick<RunEstimate, 'basis' | 'confidence'>): string {
  const runs = `${e.basis.runs} ${e.basis.runs === 1 ? 'run' : 'runs'}`;
  if (e.confidence === 'none') return 'from the plan alone (no runs yet): a rough guess';
  if (e.confidence === 'low') return `from ${runs}, few of them like this one: a rough guess`;
  return `from ${runs} like this one`;
}

/** Cost and time alone, `about $0.40, up to $1.10 · 6–14 min`: a run's, or one step's share of it (a drafted plan's steps). */
export function estimateRange(e: StepEstimate): string {
  return `about ${estimateMoney(e.usd.p50)}, up to ${estimateMoney(e.usd.p90)} · ${estimateMinutes(e.minutes)}`;
}

export function estimateLine(e: RunEstimate): string {
  return `${estimateRange(e)} · ${estimateBasis(e)}`;
}

/** The task budget is below the estimate's 90th percentile: say so, and what to set it to. Null when it is not. */
export function budgetWarning(e: RunEstimate, taskUsd: number | null): string | null {
  if (taskUsd === null || taskUsd >= e.usd.p90) return null;
  return `The task budget (${money(taskUsd)}) is below what 9 runs in 10 like this one cost (${estimateMoney(e.usd.p90)}): the run may pause for its budget.`;
}

/** The run screen's estimate against what the run spent: `about $0.40, up to $1.10 · spent $0.31, within it`. */
export function estimateVsActual(e: RunEstimate, costUsd: number | null, finished: boolean): string {
  const head = estimateRange(e);
  if (costUsd === null) return `${head} · spent: unknown (a model price is unknown)`;
  const where = costUsd > e.usd.p90 ? 'over its 90th percentile' : finished ? 'within it' : 'so far';
  return `${head} · spent ${money(costUsd)}, ${where}`;
}

/** "Of the last 23 runs, 21 cost at most their estimate's 90th percentile; the median was typically off by ×1.3." */
export function estimateRecordLine(r: EstimateRecord): string {
  if (r.runs === 0) return 'No finished run has an estimate yet.';
  const off = r.medianError === null ? '' : `; the median estimate was typically off by ×${Math.exp(r.medianError).toFixed(1)}`;
  return `Of the last ${r.runs} ${r.runs === 1 ? 'run' : 'runs'} with an estimate, ${r.withinP90} cost at most its 90th percentile${off}.`;
}
