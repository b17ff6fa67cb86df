// How the estimates held: of the last finished runs that started with one, how many cost at most their p90, and the
// median error of the median (|log(actual ÷ p50)|, as benchmark P18 measures it). The dashboard and the weekly report show it.
import { RunEstimate } from '../../../shared/domain';
import type { EstimateRecord } from '../../../shared/contract';
import { estimatedRuns } from '../store/estimate-queries';
import type { StoreDb } from '../store/store-rows';

/** How many of the last runs are looked at. */
export const RECORD_RUNS = 50;

export function estimateRecord(rows: ReadonlyArray<{ estimate: RunEstimate; costUsd: number }>): EstimateRecord {
  const errors = rows
    .filter((r) => r.estimate.usd.p50 > 0 && r.costUsd > 0)
    .map((r) => Math.abs(Math.log(r.costUsd / r.estimate.usd.p50)))
    .sort((x, y) => x - y);
  return {
    runs: rows.length,
    withinP90: rows.filter((r) => r.costUsd <= r.estimate.usd.p90 + 1e-9).length,
    medianError: errors.length ? Math.round((errors[Math.floor(errors.length / 2)] as number) * 1000) / 1000 : null,
  };
}

/** The record over the store's last finished runs with an estimate (an indexed read of at most RECORD_RUNS runs). */
export function loadEstimateRecord(db: StoreDb, limit = RECORD_RUNS): EstimateRecord {
  const rows = estimatedRuns(db, limit).flatMap((r) => {
    if (r.costUsd === null) return [];
    try {
      const parsed = RunEstimate.safeParse(JSON.parse(r.estimateJson));
      return parsed.success ? [{ estimate: parsed.data, costUsd: r.costUsd }] : [];
    } catch {
      return [];
    }
  });
  return estimateRecord(rows);
}
