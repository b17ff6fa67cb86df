// The contract's documents for the dashboard: a period's summary, improvement suggestions and the what-if replay.
import { z } from 'zod';
import { ErrorClass } from '../domain';

/** The period's pull-request rounds (CI and review, `ratchet pr --watch --fix`): what they cost, what was flaky. */
export const PrRoundsStats = z.object({
  pullRequests: z.number().int(),
  merged: z.number().int(),
  ciFixRounds: z.number().int(),
  ciFixesPushed: z.number().int(),
  ciFixCostUsd: z.number(),
  ciFixUnknownCost: z.boolean(),
  /** Pull requests merged after a CI fix round was pushed: what the fixes bought. */
  mergedAfterCiFix: z.number().int(),
  infrastructureReruns: z.number().int(),
  brokenOnBase: z.number().int(),
  flakyByCheck: z.array(z.object({ check: z.string(), flaky: z.number().int(), rounds: z.number().int(), rate: z.number() })),
  flakyTests: z.array(z.object({ check: z.string(), test: z.string(), count: z.number().int() })),
  reviewRounds: z.number().int(),
  reviewCostUsd: z.number(),
});
export type PrRoundsStats = z.infer<typeof PrRoundsStats>;
/** Review rounds counted like retries: how many, what their steps cost, the comments they sent, and which were declined (the latest few). */
export const ReviewRoundStats = z.object({
  rounds: z.number().int(),
  failed: z.number().int(),
  costUsd: z.number(),
  comments: z.number().int(),
  declinedCount: z.number().int(),
  declined: z.array(z.object({ runId: z.string(), file: z.string(), line: z.number().int(), body: z.string(), answer: z.string().nullable() })),
});
export type ReviewRoundStats = z.infer<typeof ReviewRoundStats>;

export const StatsSummary = z.object({
  days: z.number().int(),
  runs: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  successRate: z.number().nullable(),
  /** Attempts per step that succeeded. */
  avgAttemptsPerSuccess: z.number().nullable(),
  /** Steps by how many retries they needed; `failedAfterMax` gave up. */
  retryBreakdown: z.object({ r0: z.number().int(), r1: z.number().int(), r2: z.number().int(), r3plus: z.number().int(), failedAfterMax: z.number().int() }),
  retryReasons: z.array(z.object({ errorClass: z.string(), count: z.number().int() })),
  /** Absent where no store answers it (a team's summary). */
  reviewRounds: ReviewRoundStats.optional(),
  costPerDay: z.array(z.object({ day: z.string(), costUsd: z.number(), retryCostUsd: z.number() })),
  dailyBudgetUsd: z.number().nullable(),
  totalCostUsd: z.number(),
  retryCostUsd: z.number(),
  /** Steps whose retries ended in success: what the retries bought. */
  savedByRetries: z.number().int(),
  suggestions: z.array(z.string()),
  /** How the estimates held over the last finished runs that had one (not only this period's); absent from older hosts. */
  estimates: z.lazy(() => EstimateRecord).optional(),
  /** The period's pull-request rounds; absent from older hosts. */
  pullRequests: PrRoundsStats.optional(),
});
export type StatsSummary = z.infer<typeof StatsSummary>;

/** Of the last `runs` finished runs with an estimate, `withinP90` cost at most its p90; `medianError` is the median |log(actual ÷ p50)| (null: none to measure). */
export const EstimateRecord = z.object({ runs: z.number().int().min(0), withinP90: z.number().int().min(0), medianError: z.number().min(0).nullable() });
export type EstimateRecord = z.infer<typeof EstimateRecord>;

/** Seed 002's improvement suggestion: what the period's attempts show, and what to change ("finding → action"). */
export const ImprovementDoc = z.object({ finding: z.string(), action: z.string(), errorClass: z.string().nullable() });
export type ImprovementDoc = z.infer<typeof ImprovementDoc>;

/** What-if: another retry policy replayed over the period's recorded attempts (issue 13's "what-if"). */
export const WhatIfChoiceDoc = z.object({
  preset: z.enum(['conservative', 'aggressive', 'minimal']).optional(),
  maxRetries: z.number().int().min(0).max(20).optional(),
  limits: z.partialRecord(ErrorClass, z.number().int().min(0).max(20)).optional(),
  taskUsd: z.number().positive().nullable().optional(),
});
const WhatIfOutcomeDoc = z.enum(['succeeded', 'failed', 'needs_you', 'budget', 'unknown']);
const WhatIfTotalsDoc = z.object({
  succeeded: z.number().int(),
  failed: z.number().int(),
  needsYou: z.number().int(),
  budget: z.number().int(),
  unknown: z.number().int(),
  costUsd: z.number(),
});
export const WhatIfDoc = z.object({
  policy: z.object({ limits: z.record(z.string(), z.number()), taskUsd: z.number().nullable() }),
  runs: z.number().int(),
  actual: WhatIfTotalsDoc,
  simulated: WhatIfTotalsDoc,
  changed: z.array(
    z.object({
      runId: z.string(),
      title: z.string(),
      actual: z.union([WhatIfOutcomeDoc, z.literal('other')]),
      simulated: WhatIfOutcomeDoc,
      actualCostUsd: z.number(),
      simulatedCostUsd: z.number(),
      reason: z.string(),
    }),
  ),
  /** How many runs change outcome; `changed` lists the most expensive of them (at most 50). */
  changedCount: z.number().int(),
  assumptions: z.array(z.string()),
});
export type WhatIfDoc = z.infer<typeof WhatIfDoc>;
