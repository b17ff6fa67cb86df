// Loads a period's runs, steps and recorded attempts as the what-if replay reads them (narrow columns only, one query).
import type { StoreDb } from '../store/store-rows';
import { whatIfRows } from '../store/stats-queries';
import type { HistoryAttempt, HistoryRun, HistoryStep } from './what-if';

/** Runs created since `sinceIso`, each with its steps (skipped ones left out) and their attempts in order. */
export function loadWhatIfHistory(db: StoreDb, sinceIso: string): HistoryRun[] {
  const rows = whatIfRows(db, sinceIso);
  const runs = new Map<string, HistoryRun & { steps: HistoryStep[] }>();
  const steps = new Map<string, HistoryStep & { attempts: HistoryAttempt[]; status: string | null }>();
  for (const r of rows) {
    let run = runs.get(r.run_id);
    if (!run) {
      run = { runId: r.run_id, title: r.title, status: r.status, reason: r.reason, reasonCode: r.reason_code, steps: [] };
      runs.set(r.run_id, run);
    }
    if (r.step_index === null) continue;
    const key = `${r.run_id}#${r.step_index}`;
    let step = steps.get(key);
    if (!step) {
      step = { index: r.step_index, title: r.step_title ?? '', attempts: [], status: r.step_status };
      steps.set(key, step);
      run.steps.push(step);
    }
    if (r.n !== null && r.outcome !== null) step.attempts.push({ outcome: r.outcome, errorClass: r.error_class, costUsd: r.cost_usd ?? 0 });
  }
  // A step committed without an attempt of its own (adopted from the branch by reconciliation) passed at no cost.
  for (const s of steps.values()) if (s.attempts.length === 0 && s.status === 'succeeded') s.attempts.push({ outcome: 'passed', errorClass: null, costUsd: 0 });
  return [...runs.values()].map((r) => ({ ...r, steps: r.steps.map(({ index, title, attempts }) => ({ index, title, attempts })) }));
}
