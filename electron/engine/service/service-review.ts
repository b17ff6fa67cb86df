// The contract's review methods (shared/contract.ts `review.*`) over the engine's review rounds (review/review-round.ts).
import type { Handlers } from '../../../shared/contract';
import type { Engine } from '../engine';
import { commentDoc, roundDoc } from '../review/review-round';

type ReviewHandlers = Pick<Handlers, 'review.diff' | 'review.fileLines' | 'review.get' | 'review.comment' | 'review.edit' | 'review.remove' | 'review.send'>;

/** `request`: the scheduler's (a round starts now when a slot is free, else waits in the queue like any run). */
export function reviewHandlers(engine: Engine, request: (runId: string) => { queued: boolean }): ReviewHandlers {
  return {
    'review.diff': async ({ runId, step }) => engine.review.diff(runId, { step }),
    'review.fileLines': async ({ runId, commit, path, from, count }) => engine.review.fileLines(runId, { commit, path, from, count }),
    'review.get': async ({ runId }) => {
      const r = await engine.review.list(runId);
      return { runId, comments: r.comments.map(commentDoc), rounds: r.rounds.map(roundDoc) };
    },
    'review.comment': async ({ runId, file, line, endLine, body }) =>
      commentDoc(await engine.review.comment(runId, { file, line, endLine, body, source: 'app' })),
    'review.edit': async ({ runId, id, body }) => {
      engine.review.edit(runId, id, body);
      return { ok: true as const };
    },
    'review.remove': async ({ runId, id }) => {
      engine.review.remove(runId, id);
      return { ok: true as const };
    },
    'review.send': async ({ runId }) => {
      // Refused here, with its sentence, rather than from the background where only a notice would say it.
      engine.review.assertSendable(runId);
      return request(runId);
    },
  };
}
