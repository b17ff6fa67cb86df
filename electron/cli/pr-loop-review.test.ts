// `ratchet pr --fix ci,review` end to end against the scripted GitHub: a review of three line comments → one round,
// one commit pushed, three replies, no thread resolved. The fixture is in testing/pr-loop-fixture.ts; the other
// scenarios are in pr-loop-*.test.ts beside this one.
import { describe, expect, it } from 'vitest';
import { sh } from '../engine/testing/temp-repo';
import { E2E_MS, prLoopFixture } from './testing/pr-loop-fixture';

const t = prLoopFixture();
const { run, pr, steps } = t;

describe('ratchet pr --watch: CI and reviews as remote gates', () => {
  it(
    'a review of three line comments is answered in one round: one step, one commit pushed, three replies, no thread resolved',
    async () => {
      t.gh.setScenario({ requiredChecks: ['test'] });
      const id = await run('Three lines');
      const opened = await pr(id);
      expect(opened.code, opened.err).toBe(0);
      // The three lines the run's step wrote (the notes' last three, whatever main held before).
      const head = t.gh.state.pulls.find((p) => p.number === opened.doc.pr.number)!.head;
      const n = sh(t.f.bare, 'show', `${head}:notes.txt`).split('\n').length;
      const review = await t.gh.submitReview(opened.doc.pr.number, {
        state: 'CHANGES_REQUESTED',
        comments: [n - 2, n - 1, n].map((line) => ({ path: 'notes.txt', line, body: `Line ${line} needs rewording.` })),
      });
      const r = await pr(id, '--fix', 'ci,review'); // --fix implies --watch
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/review was answered on [0-9a-f]{8}; it still requests changes until they review again/);
      expect(await steps(id)).toEqual(['Three lines (1)', 'Address review of step 1 (3 comments) (1)']);
      const round = r.doc.pr.rounds.find((x) => x.kind === 'review')!;
      expect(round).toMatchObject({ trigger: `review ${review.id}`, outcome: 'answered', attempts: 1 });
      const asked = t.gh.state.reviewComments.filter((c) => c.reviewId === review.id);
      const replies = t.gh.state.reviewComments.filter((c) => asked.some((a) => a.id === c.inReplyToId));
      expect(replies.map((c) => c.inReplyToId).sort()).toEqual(asked.map((c) => c.id).sort());
      expect(replies.filter((c) => c.body.startsWith(`Addressed in ${round.commit}`))).toHaveLength(2);
      expect(replies.find((c) => c.inReplyToId === asked[2]!.id)?.body).toMatch(/^Not changed.*the third line is what the task asked for/);
      expect(sh(t.f.bare, 'rev-parse', t.gh.state.pulls.find((p) => p.number === r.doc.pr.number)!.head)).toBe(round.commit);
      expect(r.doc.pr.rounds.filter((x) => x.kind === 'review')).toHaveLength(1);
    },
    E2E_MS,
  );
});
