// The contract's documents about reviews: a line comment on a run's change, with where it points now and the agent's
// answer, and the round that sent it (electron/engine/review/ keeps them; `ratchet review --json` prints them).
import { z } from 'zod';

export const ReviewCommentDoc = z.object({
  id: z.number().int(),
  runId: z.string(),
  source: z.enum(['app', 'cli', 'forge']),
  /** The forge's own id of the comment (a pull request's review comment), else null. */
  externalId: z.string().nullable(),
  /** The commit the comment was made on, and the file and lines (new side) it pointed at there. */
  madeOn: z.string(),
  file: z.string(),
  line: z.number().int().min(1),
  endLine: z.number().int().min(1),
  body: z.string(),
  /** Where it points now: lines in `anchorCommit`, null when they are gone (outdated). */
  anchorCommit: z.string(),
  anchorLine: z.number().int().min(1).nullable(),
  anchorEndLine: z.number().int().min(1).nullable(),
  outdated: z.boolean(),
  state: z.enum(['pending', 'sent', 'answered', 'outdated']),
  roundId: z.number().int().nullable(),
  /** The agent's answer: done, declined (why not), or none given. */
  verdict: z.enum(['done', 'declined', 'unanswered']).nullable(),
  answer: z.string().nullable(),
  /** The commit of the round that addressed it (a `done` answer in a round that committed). */
  addressedCommit: z.string().nullable(),
  createdAt: z.string(),
});
export type ReviewCommentDoc = z.infer<typeof ReviewCommentDoc>;

export const ReviewRoundDoc = z.object({
  id: z.number().int(),
  runId: z.string(),
  /** The step the round ran as ("Address review …"), and the step every comment lay in (null: several, or none). */
  step: z.number().int(),
  onStep: z.number().int().nullable(),
  headBefore: z.string(),
  status: z.enum(['running', 'answered', 'failed']),
  commit: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ReviewRoundDoc = z.infer<typeof ReviewRoundDoc>;

/** A run's review: its comments (oldest first) and its rounds. */
export const ReviewDoc = z.object({ runId: z.string(), comments: z.array(ReviewCommentDoc), rounds: z.array(ReviewRoundDoc) });
export type ReviewDoc = z.infer<typeof ReviewDoc>;
