// A run's pull request as the status document carries it (`ratchet pr --json`, `ratchet status --json`): where it is,
// its head commit, its checks, and the rounds of remote gates (CI, review) Ratchet spent on it.
import { z } from 'zod';

export const PrCheckDoc = z.object({
  name: z.string(),
  /** null while it runs or waits (never green). */
  conclusion: z.string().nullable(),
  /** Whether the base branch's protection requires it. */
  required: z.boolean(),
});
export type PrCheckDoc = z.infer<typeof PrCheckDoc>;

export const PrRoundDoc = z.object({
  kind: z.enum(['ci', 'review']),
  /** What started the round: the failing check's name, or `review <id>`. */
  trigger: z.string(),
  /**
   * ci: `rerun` (infrastructure: its failed jobs re-run, no agent), `flaky` (passed on a re-run of the same commit),
   * `broken_on_base`, `pushed` (a fix committed and pushed), `failed` (the fix failed its local gates: nothing pushed),
   * `no_change`, `repeat` (the same failure again after a fix), `cap` (limits.ci_failure reached);
   * review: `answered` (the fix pushed and each thread replied to) or `failed`.
   */
  outcome: z.string(),
  attempts: z.number().int().min(0),
  costUsd: z.number().nullable(),
  /** The head commit the round acted on. */
  head: z.string().optional(),
  /** The failing tests it was about (a flaky round: the tests that failed, then passed on the re-run). */
  tests: z.array(z.string()).optional(),
  /** The commit a fix round pushed. */
  commit: z.string().optional(),
});
export type PrRoundDoc = z.infer<typeof PrRoundDoc>;

export const PrDoc = z.object({
  number: z.number().int().positive(),
  url: z.string(),
  state: z.enum(['open', 'closed']),
  headSha: z.string(),
  merged: z.boolean(),
  checks: z.array(PrCheckDoc),
  rounds: z.array(PrRoundDoc),
});
export type PrDoc = z.infer<typeof PrDoc>;

/**
 * What Ratchet does on its own while it watches a run's pull request (the app's toggles; the CLI's `--fix` and
 * `--merge`): which remote gates send their failures back to the agent, and how to merge once every check that counts
 * is green on the head commit (null: never merge by itself).
 */
export const PrOptions = z.object({
  fix: z.array(z.enum(['ci', 'review'])),
  merge: z.enum(['squash', 'merge', 'rebase']).nullable(),
});
export type PrOptions = z.infer<typeof PrOptions>;

/** CI fixes on, review fixes and merging off: `ratchet pr --watch`'s defaults. */
export const DEFAULT_PR_OPTIONS: PrOptions = { fix: ['ci'], merge: null };
