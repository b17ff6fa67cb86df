// The contract's documents for resuming a run: the engine's resume plan, what must be fixed first, and the dialog's facts.
import { z } from 'zod';
import { RunStatus } from '../domain';

export const RecoveryOptionDoc = z.enum(['checkout_branch', 'recreate_worktree', 'rescue_commit', 'stash', 'abort']);
export const RequiredActionDoc = z.object({
  code: z.enum(['no_branch', 'no_worktree', 'wrong_branch', 'dirty_tree', 'no_plan', 'missing_commits']),
  message: z.string(),
  options: z.array(RecoveryOptionDoc),
  safeDefault: RecoveryOptionDoc,
});

/** Seed 003 §2.1's resume plan: where to continue, why, and what must be fixed first (computed by the engine). */
export const ResumePlanDoc = z.object({
  lastStatus: z.enum(['failed', 'waiting_approval', 'in_progress', 'completed']),
  /** The step to run next; null when every step is done (or nothing can be resumed). */
  nextStep: z.number().int().nullable(),
  action: z.enum(['retry_step', 'next_step', 'approve', 'finish', 'none']),
  reason: z.string(),
  /** The step may be skipped instead (seed 003: in_progress → retry or skip). */
  canSkip: z.boolean(),
  phaseRollover: z.string().nullable(),
  completed: z.array(z.object({ index: z.number().int(), title: z.string(), commit: z.string() })),
  required: z.array(RequiredActionDoc),
  blocked: z.boolean(),
});
export type ResumePlan = z.infer<typeof ResumePlanDoc>;
export type RecoveryOption = z.infer<typeof RecoveryOptionDoc>;
export type RequiredAction = z.infer<typeof RequiredActionDoc>;

/** Seed 003 §2.3's "Workflow Resume Plan", for the resume dialog. */
export const ResumeInfoDoc = z.object({
  runId: z.string(),
  title: z.string(),
  worktree: z.string(),
  branch: z.string(),
  status: RunStatus,
  reason: z.string().nullable(),
  lastSeen: z.string().nullable(),
  steps: z.array(
    z.object({
      index: z.number().int(),
      title: z.string(),
      status: z.string(),
      commit: z.string().nullable(),
      phase: z.string().nullable().optional(),
      attempts: z.number().int(),
    }),
  ),
  plan: ResumePlanDoc,
  repeatedFailures: z.array(
    z.object({ runId: z.string(), n: z.number().int(), errorClass: z.string().nullable(), message: z.string().nullable(), at: z.string() }),
  ),
  baseConflicts: z.array(z.string()),
  /** Seed 003's confirmation: phase x/total, the last step's agent/model, and the agent/model of the next step. */
  phase: z.object({ index: z.number().int(), total: z.number().int(), name: z.string() }).nullable().optional(),
  lastStep: z
    .object({ index: z.number().int(), title: z.string(), status: z.string(), agent: z.string().nullable(), model: z.string().nullable() })
    .nullable()
    .optional(),
  nextAgent: z.object({ agent: z.string(), model: z.string().nullable() }).nullable().optional(),
});
export type ResumeInfoDoc = z.infer<typeof ResumeInfoDoc>;
