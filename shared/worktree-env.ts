// The worktree's environment as the status document, the app and the CLI show it: setup, files copied, dependencies reused, the baseline check.
import { z } from 'zod';
import { ErrorClass } from './error-class';

/** One run of the workflow's `setup` (or why it did not need to run). */
export const SetupDoc = z.object({
  /** `ok` ran and succeeded; `failed` (the environment's problem, see `message`); `skipped` nothing to run; `stopped` by the user. */
  outcome: z.enum(['ok', 'failed', 'skipped', 'stopped']),
  /** Wall time of the setup commands (0 when skipped). */
  durationMs: z.number(),
  at: z.string(),
  /** Why it ran ("the worktree was made", "package-lock.json changed") or why it was skipped. */
  note: z.string().nullable(),
  /** A failure's sentence: what failed and what to fix. */
  message: z.string().nullable(),
  /** The last lines of its output. */
  outputTail: z.string(),
});
export type SetupDoc = z.infer<typeof SetupDoc>;

/** One gate as it ran on the base commit. */
export const BaselineGateDoc = z.object({
  gate: z.string(),
  command: z.string(),
  passed: z.boolean(),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  /** How its failure is classified (null when it passed). */
  errorClass: ErrorClass.nullable(),
  message: z.string().nullable(),
  /** The tests (or compile errors) it reported failing, by name. */
  failingTests: z.array(z.string()),
  /** The modules, packages and commands its output said were missing (the classifier's names); absent in older runs. */
  missing: z.array(z.string()).optional(),
  outputTail: z.string(),
});
export type BaselineGateDoc = z.infer<typeof BaselineGateDoc>;

/** The baseline check: setup and gates once on the base commit, before any agent attempt. */
export const BaselineDoc = z.object({
  commit: z.string(),
  /** Setup succeeded and no gate failed for the environment's reasons (a missing tool or module, permissions): the agent can start. */
  ready: z.boolean(),
  /** Why the project is not ready, and what to change; null when ready. */
  problem: z.string().nullable(),
  setup: SetupDoc.nullable(),
  gates: z.array(BaselineGateDoc),
  /** Tests already failing on the base commit, each `gate: test name` once (told to the agent, given to the classifier). */
  failingTests: z.array(z.string()),
  durationMs: z.number(),
  at: z.string(),
});
export type BaselineDoc = z.infer<typeof BaselineDoc>;

/** A folder of dependencies brought from the user's checkout instead of installed (a real copy, never a link). */
export const ReusedDoc = z.object({
  path: z.string(),
  /** Why it could be reused (e.g. "package-lock.json is the same"). */
  because: z.string(),
  /** `reflink` (copy-on-write), `copy`. */
  method: z.string(),
  durationMs: z.number(),
});
export type ReusedDoc = z.infer<typeof ReusedDoc>;

/** What Ratchet did to make the run's worktree ready to test. */
export const WorktreeEnvDoc = z.object({
  /** Files brought from the checkout by `copy:` (never committed). */
  copied: z.array(z.string()),
  reused: z.array(ReusedDoc),
  /** The last setup. */
  setup: SetupDoc.nullable(),
  baseline: BaselineDoc.nullable(),
  /** How the environment was changed so that gates test the worktree's code (e.g. "PYTHONPATH starts with the worktree's src"). */
  fixes: z.array(z.string()),
});
export type WorktreeEnvDoc = z.infer<typeof WorktreeEnvDoc>;
