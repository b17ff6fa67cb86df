// The dashboard's heavy reads, as one dispatch a stats worker (stats-worker.ts) and the inline fallback both run: the
// weekly report, the improvement suggestions and the what-if replay, over a store connection (the worker's read-only one).
import type { PRESETS } from '../policy/policy';
import type { StoreDb } from '../store/store-rows';
import { statsWindow } from './stats';
import { loadStats } from './stats-load';
import { loadImprovements, weeklyReport } from './stats-report';
import { whatIf, type WhatIfChoice } from './what-if';
import { whatIfHistory } from './what-if-history';

/** What a call needs from the host besides the store: the clock and Settings' daily budget and preset. */
export interface StatsContext {
  nowIso: string;
  dailyUsd: number | null;
  preset: keyof typeof PRESETS;
}

export type StatsCall =
  | { kind: 'report'; days: number; ctx: StatsContext }
  | { kind: 'improvements'; days: number; ctx: StatsContext }
  | { kind: 'whatIf'; days: number; choice: WhatIfChoice; ctx: StatsContext };

export type StatsCallResult<C extends StatsCall> = C extends { kind: 'report' }
  ? { markdown: string }
  : C extends { kind: 'improvements' }
    ? { items: ReturnType<typeof loadImprovements> }
    : ReturnType<typeof whatIf>;

/** Runs one call over `db` (plain data in, plain data out: what crosses the worker boundary). */
export function runStatsCall<C extends StatsCall>(db: StoreDb, call: C): StatsCallResult<C> {
  const now = new Date(call.ctx.nowIso);
  switch (call.kind) {
    case 'report':
      return { markdown: weeklyReport(db, call.days, now, { dailyUsd: call.ctx.dailyUsd, preset: call.ctx.preset }).markdown } as StatsCallResult<C>;
    case 'improvements':
      return { items: loadImprovements(db, loadStats(db, call.days, now, call.ctx.dailyUsd), now, call.ctx.preset) } as StatsCallResult<C>;
    case 'whatIf':
      // The dashboard's period: the same local calendar days as stats.summary, so both count the same runs.
      return whatIf(whatIfHistory(db, statsWindow(call.days, now).sinceIso), call.choice) as StatsCallResult<C>;
  }
  throw new Error(`unknown stats call ${(call as { kind: string }).kind}`);
}
