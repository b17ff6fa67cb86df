// The period's improvement suggestions and the weekly report, from the same summary the dashboard shows (what the app, the host and `ratchet stats` call).
import type { PrRoundsStats, StatsSummary } from '../../../shared/contract';
import { improvementSuggestions, type Improvement } from './improvements';
import { DEFAULT_LIMITS, PRESETS } from '../policy/policy';
import { allSuggestions, reportMarkdown } from './stats';
import { failurePatterns } from './failure-patterns';
import { loadClassRecords, loadStats, loadUnfixedFailures } from './stats-load';
import type { StoreDb } from '../store/store-rows';
import { loadEstimateRecord } from './estimate-record';
import { estimateRecordLine } from '../../../shared/estimate-text';
import { prDocsSince } from '../store/run-pr';
import { prRoundsMarkdown, prRoundsStats } from './pr-rounds';
import { statsWindow } from './stats';

export interface ReportSettings {
  dailyUsd: number | null;
  preset: keyof typeof PRESETS;
}

/** Improvement suggestions for the period `s` summarises (per error class, against the limits of the preset in Settings, then failure patterns). */
export function loadImprovements(db: StoreDb, s: StatsSummary, now: Date, preset: keyof typeof PRESETS): Improvement[] {
  const budget = s.dailyBudgetUsd;
  const byClass = improvementSuggestions({
    classes: loadClassRecords(db, s.days, now),
    limits: { ...DEFAULT_LIMITS, test_failure: PRESETS[preset].max_retries },
    successSteps: s.retryBreakdown.r0 + s.retryBreakdown.r1 + s.retryBreakdown.r2 + s.retryBreakdown.r3plus,
    avgAttemptsPerSuccess: s.avgAttemptsPerSuccess,
    daysOverBudget: budget === null ? 0 : s.costPerDay.filter((d) => d.costUsd > budget).length,
    dailyBudgetUsd: budget,
  });
  // The failure-pattern advice: what several tasks' unfixed failures share.
  return [...byClass, ...failurePatterns(loadUnfixedFailures(db, s.days, now))];
}

/** The period's pull-request rounds: of the pull requests last watched in the last `days` local days. */
export function loadPrRounds(db: StoreDb, days: number, now: Date): PrRoundsStats {
  return prRoundsStats(prDocsSince(db, statsWindow(days, now).sinceIso));
}

/** The weekly report: the dashboard's summary for the period and its improvement suggestions, as Markdown. */
export function weeklyReport(
  db: StoreDb,
  days: number,
  now: Date,
  settings: ReportSettings,
): { summary: StatsSummary; improvements: Improvement[]; markdown: string } {
  const counted = loadStats(db, days, now, settings.dailyUsd);
  const improvements = loadImprovements(db, counted, now, settings.preset);
  // One list of suggestions: the summary carries the improvement suggestions too, as the report lists them.
  const estimates = loadEstimateRecord(db);
  const pullRequests = loadPrRounds(db, days, now);
  const summary = { ...counted, suggestions: allSuggestions(counted, improvements), estimates, pullRequests };
  const prs = prRoundsMarkdown(pullRequests);
  const markdown = `${reportMarkdown(summary, now, improvements).trimEnd()}\n\n## Estimates\n\n${estimateRecordLine(estimates)}\n${prs ? `\n## Pull requests\n\n${prs}\n` : ''}`;
  return { summary, improvements, markdown };
}

/** The period's summary as the dashboard and `ratchet stats --json` get it: its `suggestions` are the report's, improvement suggestions included. */
export function loadSummary(db: StoreDb, days: number, now: Date, settings: ReportSettings): StatsSummary {
  return weeklyReport(db, days, now, settings).summary;
}
