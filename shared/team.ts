// Team mode's vocabulary, shared by the engine, the CLI and the renderer: a run on team workers as the team database
// lists it, the team's workers, and the queue's limits (electron/engine/team/ keeps them in PostgreSQL through DBOS).
import { z } from 'zod';
import { RunReasonCode, RunStatus } from './domain';

/** A team run as the team's list shows it: where it runs (`worker`), what it cost, and why it stands where it does. */
export const TeamRunItem = z.object({
  id: z.string(),
  title: z.string(),
  /** The remote the workers clone from (the repository's `origin`). */
  remote: z.string(),
  repoName: z.string(),
  branch: z.string().nullable(),
  status: RunStatus,
  reason: z.string().nullable(),
  reasonCode: RunReasonCode.nullable(),
  /** The worker running it now (or that ran it last); null while it waits in the queue. */
  worker: z.string().nullable(),
  submittedBy: z.string(),
  /** Higher starts first (-100 … 100), as `ratchet run --queue --priority`. */
  priority: z.number().int(),
  costUsd: z.number().nullable(),
  stepsDone: z.number().int(),
  stepsTotal: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TeamRunItem = z.infer<typeof TeamRunItem>;

/** A worker process (`ratchet worker`) as the team database knows it. */
export const TeamWorker = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.number().int(),
  concurrency: z.number().int(),
  startedAt: z.string(),
  lastSeen: z.string(),
  /** alive: heard from within the last minute; gone: stopped answering (its runs are taken over); stopped: shut down. */
  state: z.enum(['alive', 'gone', 'stopped']),
  running: z.number().int(),
});
export type TeamWorker = z.infer<typeof TeamWorker>;

/** The queue's limits across the team: running runs at once in all (global), on one worker, on one repository. */
export const TeamLimits = z.object({
  global: z.number().int().min(1),
  perWorker: z.number().int().min(1),
  perRepo: z.number().int().min(1),
});
export type TeamLimits = z.infer<typeof TeamLimits>;

/** The team's state at a glance (Settings › Team, the runs list's team header, `ratchet list --team`). */
export const TeamOverview = z.object({
  limits: TeamLimits,
  workers: z.array(TeamWorker),
  /** The team's daily budget (null: none) and what every worker spent today (UTC day). */
  dailyBudgetUsd: z.number().nullable(),
  spentTodayUsd: z.number(),
});
export type TeamOverview = z.infer<typeof TeamOverview>;
