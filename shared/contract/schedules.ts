// The contract's documents about schedules: a schedule as `ratchet schedule list --json` prints it and Settings › Schedules shows it.
import { z } from 'zod';

export const MissedTick = z.enum(['run-once', 'skip']);
export type MissedTick = z.infer<typeof MissedTick>;

/** What a new schedule says: the repository, the cron expression (in `tz`, default the machine's zone), the task. */
export const ScheduleInput = z.object({
  repo: z.string().min(1),
  cron: z.string().trim().min(1),
  tz: z.string().trim().min(1).nullable().default(null),
  /** A workflow file the user names (trusted for the repository, as `ratchet trust <repo> --workflow` does); null: the repository's own. */
  workflowFile: z.string().min(1).nullable().default(null),
  /** The task's title (null: the workflow file's task). */
  task: z.string().trim().min(1).nullable().default(null),
  /** The task budget of each run it starts (USD); null: the workflow's. */
  budgetUsd: z.number().positive().nullable().default(null),
  /** A tick missed while nothing ran: fire once at the next start, or skip it. */
  missed: MissedTick.default('run-once'),
});
export type ScheduleInput = z.input<typeof ScheduleInput>;

export const ScheduleDoc = ScheduleInput.extend({
  id: z.string(),
  paused: z.boolean(),
  /** What stopped its last tick (repository gone, workflow no longer trusted, budget spent…), as a sentence; null: none. */
  problem: z.string().nullable(),
  lastTickAt: z.string().nullable(),
  lastRunId: z.string().nullable(),
  /** Its next tick (ISO), null when paused or when the expression no longer reads. */
  nextAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ScheduleDoc = z.infer<typeof ScheduleDoc>;
