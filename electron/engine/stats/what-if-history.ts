// Loads a period's runs, steps and recorded attempts as the what-if replay reads them (narrow columns only, one query),
// one run at a time: the query's rows come in run order, so each run is handed on once its rows are read, and a year of
// history is never held whole (1M attempt objects in the stats worker meant long garbage collections beside the host).
import type { StoreDb } from '../store/store-rows';
import { whatIfRowsIterate, type WhatIfRow } from '../store/stats-queries';
import type { HistoryAttempt, HistoryRun, HistoryStep } from './what-if';

interface OpenStep extends HistoryStep {
  attempts: HistoryAttempt[];
  status: string | null;
}
interface OpenRun extends HistoryRun {
  steps: OpenStep[];
}

/** One run as the replay reads it; a step committed without an attempt of its own (adopted by reconciliation) passed at no cost. */
function closeRun(run: OpenRun): HistoryRun {
  return {
    ...run,
    steps: run.steps.map(({ index, title, attempts, status }) => ({
      index,
      title,
      attempts: attempts.length === 0 && status === 'succeeded' ? [{ outcome: 'passed' as const, errorClass: null, costUsd: 0 }] : attempts,
    })),
  };
}

/** The runs of `rows` (ordered by run, then step, then attempt), each yielded as soon as its last row is read. */
export function* historyRuns(rows: Iterable<WhatIfRow>): Generator<HistoryRun> {
  let run: OpenRun | undefined;
  let step: OpenStep | undefined;
  for (const r of rows) {
    if (!run || run.runId !== r.run_id) {
      if (run) yield closeRun(run);
      run = { runId: r.run_id, title: r.title, status: r.status, reason: r.reason, reasonCode: r.reason_code, steps: [] };
      step = undefined;
    }
    if (r.step_index === null) continue;
    if (!step || step.index !== r.step_index) {
      step = { index: r.step_index, title: r.step_title ?? '', attempts: [], status: r.step_status };
      run.steps.push(step);
    }
    if (r.n !== null && r.outcome !== null) step.attempts.push({ outcome: r.outcome, errorClass: r.error_class, costUsd: r.cost_usd ?? 0 });
  }
  if (run) yield closeRun(run);
}

/** Runs created since `sinceIso`, read as they are replayed (see above). */
export function whatIfHistory(db: StoreDb, sinceIso: string): Generator<HistoryRun> {
  return historyRuns(whatIfRowsIterate(db, sinceIso));
}

/** Runs created since `sinceIso`, each with its steps (skipped ones left out) and their attempts in order. */
export function loadWhatIfHistory(db: StoreDb, sinceIso: string): HistoryRun[] {
  return [...whatIfHistory(db, sinceIso)];
}
