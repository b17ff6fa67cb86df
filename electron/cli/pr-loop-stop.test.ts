// `ratchet pr --watch` end to end against the scripted GitHub: when the CI fix rounds stop — the cap reached
// (limits.ci_failure) → needs you; the same failure after a fix → stops early. The fixture is in
// testing/pr-loop-fixture.ts; the other scenarios are in pr-loop-*.test.ts beside this one.
import { describe, expect, it } from 'vitest';
import { E2E_MS, prLoopFixture } from './testing/pr-loop-fixture';

const t = prLoopFixture();
const { run, pr, steps } = t;

describe('ratchet pr --watch: CI and reviews as remote gates', () => {
  it(
    'the CI cap reached: a fix round that does not mend the check, then exit 2 with the reason (limits.ci_failure)',
    async () => {
      t.gh.setScenario({ requiredChecks: ['test'] });
      const id = await run('Stubborn', ['--workflow', t.capWorkflow]);
      const r = await pr(id, '--watch');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/fix round 1 of 1/);
      expect(r.err).toMatch(/needs you: test still fails on [0-9a-f]{8} after 1 fix round \(limits\.ci_failure = 1\)/);
      expect(await steps(id)).toEqual(['Stubborn (1)', 'Fix CI: test (1)']);
      expect(r.doc.pr.rounds.map((x) => x.outcome)).toEqual(['pushed', 'cap']);
      // Watched again (the app's panel opened, Check again, a host restarted): the same cap, said again, not counted twice.
      const again = await pr(id, '--watch');
      expect(again.code, again.err).toBe(2);
      expect(again.err).toMatch(/after 1 fix round \(limits\.ci_failure = 1\)/);
      expect(again.doc.pr.rounds.map((x) => x.outcome)).toEqual(['pushed', 'cap']);
    },
    E2E_MS,
  );

  it(
    'a fix round after which the same tests fail again stops early (repeat): no second round, exit 2',
    async () => {
      t.gh.setScenario({ requiredChecks: ['test'] });
      const id = await run('Stubborn again');
      const r = await pr(id, '--watch');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/needs you: test fails the same way after its fix round \(the notes are mended\)/);
      expect(await steps(id)).toEqual(['Stubborn again (1)', 'Fix CI: test (1)']);
      expect(r.doc.pr.rounds.map((x) => x.outcome)).toEqual(['pushed', 'repeat']);
    },
    E2E_MS,
  );
});
