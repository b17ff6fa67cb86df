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
