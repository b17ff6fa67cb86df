// `ratchet pr --watch` end to end against the scripted GitHub: failures the agent is never called for — a runner lost
// → its failed jobs re-run; a flaky failure → recorded with its test's name; a check broken on the base branch too →
// needs you. The fixture is in testing/pr-loop-fixture.ts; the other scenarios are in pr-loop-*.test.ts beside this one.
import { describe, expect, it } from 'vitest';
import { pushBranch } from '../scripted/testing/github-fixture';
import { E2E_MS, prLoopFixture } from './testing/pr-loop-fixture';

const t = prLoopFixture();
const { run, pr, steps } = t;

describe('ratchet pr --watch: CI and reviews as remote gates', () => {
  it(
    'a runner lost (exit 143, no test output): its failed jobs re-run once, no agent call, then green',
    async () => {
      t.gh.setScenario({ requiredChecks: ['test'], infrastructureLossOnce: ['test'] });
      const id = await run('Infrastructure note');
      const r = await pr(id, '--watch');
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(/failed for the infrastructure's sake .*re-run, no agent call/);
      expect(await steps(id)).toEqual(['Infrastructure note (1)']);
      expect(r.doc.pr.rounds).toEqual([expect.objectContaining({ kind: 'ci', trigger: 'test', outcome: 'rerun', attempts: 0 })]);
    },
    E2E_MS,
  );

  it(
    'a flaky failure (failed, then passed on a re-run of the same commit) is recorded with its test’s name, no agent call',
    async () => {
      t.gh.setScenario({ requiredChecks: ['test'], flakyOnce: ['test'] });
      const id = await run('Flaky note');
      const r = await pr(id, '--watch');
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(/test is flaky on [0-9a-f]{8}: settles before the deadline failed, then passed on a re-run/);
      expect(await steps(id)).toEqual(['Flaky note (1)']);
      expect(r.doc.pr.rounds).toEqual([expect.objectContaining({ kind: 'ci', outcome: 'flaky', attempts: 0, tests: ['settles before the deadline'] })]);
    },
    E2E_MS,
  );

  it(
    'a check that fails on the base branch’s head too needs you (exit 2), never the agent',
    async () => {
      t.gh.setScenario({ requiredChecks: ['test'], brokenOnBase: ['test'] });
      pushBranch(t.f, 'main', { 'base.txt': 'moved on\n' }, 'main moves on');
      await t.gh.idle();
      const id = await run('Base note');
      const r = await pr(id, '--watch');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/needs you: test fails on main's head [0-9a-f]{8} too/);
      expect(await steps(id)).toEqual(['Base note (1)']);
      expect(r.doc.pr.rounds).toEqual([expect.objectContaining({ outcome: 'broken_on_base', attempts: 0 })]);
    },
    E2E_MS,
  );
});
