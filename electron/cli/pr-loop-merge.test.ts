// `ratchet pr --watch --merge` end to end against the scripted GitHub (its CI really runs the project's checks on each
// pushed commit): a real CI failure fixed in one round, then merged once every required check passed; a required check
// still pending → no merge. The fixture (one server, one project for the file) is in testing/pr-loop-fixture.ts; the
// other scenarios are in pr-loop-*.test.ts beside this one, so they run side by side.
import { describe, expect, it } from 'vitest';
import { sh } from '../engine/testing/temp-repo';
import { E2E_MS, prLoopFixture } from './testing/pr-loop-fixture';

const t = prLoopFixture();
const { run, pr, steps } = t;

describe('ratchet pr --watch: CI and reviews as remote gates', () => {
  it(
    'a real CI failure is fixed in one round (local gates, then pushed), and --merge merges once every required check passed',
    async () => {
      const id = await run('Break CI');
      const r = await pr(id, '--watch', '--merge', 'squash');
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(/test failed on [0-9a-f]{8} \(1 failing test\): re-run once to tell flaky from real/);
      expect(r.err).toMatch(/fix round 1 of 2 \("Fix CI: test"\)/);
      expect(r.err).toMatch(/is merged \(squash\)/);
      expect(await steps(id)).toEqual(['Break CI (1)', 'Fix CI: test (1)']);
      expect(r.doc.pr.merged).toBe(true);
      expect(r.doc.pr.rounds).toEqual([
        expect.objectContaining({ kind: 'ci', trigger: 'test', outcome: 'pushed', attempts: 1, tests: ['the notes are mended'] }),
      ]);
      const pull = t.gh.state.pulls.find((p) => p.number === r.doc.pr.number)!;
      expect(pull.merged).toBe(true);
      // The fix's commit is what was pushed and merged: the notes say mended on the remote's main.
      expect(sh(t.f.bare, 'show', 'main:notes.txt')).toContain('mended');
      sh(t.f.work, 'pull', '-q', '--ff-only', 'origin', 'main');
    },
    E2E_MS,
  );

  it(
    'a required check still pending is never green: --merge does not merge and says what it waits for',
    async () => {
      t.gh.setScenario({ requiredChecks: ['test', 'deploy'], pendingChecks: ['deploy'] });
      const id = await run('Pending note');
      const r = await pr(id, '--watch', '--merge', 'squash', '--max-wait', '1s');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/not merging yet: waiting for deploy \(queued\)/);
      expect(r.err).toMatch(/still waiting for deploy after \d+s; not merged/);
      expect(r.doc.pr.merged).toBe(false);
      expect(t.gh.state.pulls.find((p) => p.number === r.doc.pr.number)?.merged).toBe(false);
    },
    E2E_MS,
  );
});
