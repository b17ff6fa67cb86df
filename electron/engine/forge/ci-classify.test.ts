// CI failures classified from real job logs of the scripted GitHub's CI (the tiny project's test really run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedGithub } from '../../scripted/github-server';
import { githubProject, pushBranch, serveGithub, type GithubFixture } from '../../scripted/testing/github-fixture';
import { classifyCiFailure, jobLogText } from './ci-classify';
import type { CheckConclusion } from './forge';

const fixtures: GithubFixture[] = [];
const servers: ScriptedGithub[] = [];

/** The log and conclusion of the first run of `test` on a branch that sets value() to `value`, under a scenario. */
async function firstRun(
  scenario: Parameters<typeof serveGithub>[1],
  value: number,
): Promise<{ log: string; conclusion: CheckConclusion; base: CheckConclusion }> {
  const f = githubProject();
  fixtures.push(f);
  const gh = await serveGithub(f, scenario);
  servers.push(gh);
  const head = pushBranch(f, 'ratchet/x', { 'value.js': `exports.value = () => ${value};\n`, 'notes.txt': 'x\n' });
  await gh.idle();
  const run = gh.ci.checkRuns.find((c) => c.headSha === head)!;
  const base = gh.ci.checkRuns.find((c) => c.headBranch === 'main')!;
  return { log: run.log, conclusion: run.conclusion!, base: base.conclusion! };
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  fixtures.forEach((f) => f.cleanup());
});

describe('a failing CI check as a remote gate', () => {
  let real: { log: string; conclusion: CheckConclusion; base: CheckConclusion };
  beforeAll(async () => {
    real = await firstRun({}, 41);
  });

  it('a real test failure: the failing test parsed from the log with the project’s parsers, timestamps gone', () => {
    const v = classifyCiFailure({ checkName: 'test', conclusion: real.conclusion, log: real.log, baseConclusion: real.base, passedOnSameCommit: false });
    expect(v.ciClass).toBe('real');
    expect(v.failures.map((t) => t.name)).toEqual(['value() returns 42 (got 41)']);
    expect(v.classification.errorClass).toBe('test_failure');
    expect(v.text).not.toMatch(/^\d{4}-\d\d-\d\dT/m);
    expect(v.text).toContain('not ok 1 - value() returns 42 (got 41)');
  });

  it('the same failure that passed on a re-run of the same commit is flaky', () => {
    expect(classifyCiFailure({ checkName: 'test', conclusion: real.conclusion, log: real.log, passedOnSameCommit: true }).ciClass).toBe('flaky');
  });

  it('a lost runner (exit 143, no test output) is infrastructure', async () => {
    const lost = await firstRun({ infrastructureLossOnce: ['test'] }, 42);
    expect(
      classifyCiFailure({ checkName: 'test', conclusion: lost.conclusion, log: lost.log, baseConclusion: lost.base, passedOnSameCommit: false }).ciClass,
    ).toBe('infrastructure');
  });

  it('a check that fails on the base branch’s head too is broken on the base, never the agent’s', async () => {
    const broken = await firstRun({ brokenOnBase: ['test'] }, 42);
    expect(broken.base).toBe('failure');
    expect(
      classifyCiFailure({ checkName: 'test', conclusion: broken.conclusion, log: broken.log, baseConclusion: broken.base, passedOnSameCommit: false }).ciClass,
    ).toBe('broken_on_base');
  });

  it('a cancelled job is infrastructure whatever its log says', () => {
    expect(classifyCiFailure({ checkName: 'test', conclusion: 'cancelled', log: real.log, passedOnSameCommit: false }).ciClass).toBe('infrastructure');
  });

  it('jobLogText drops timestamps and group markers, keeps the rest', () => {
    expect(jobLogText('2026-01-01T00:00:00.0000000Z ##[group]Run x\n2026-01-01T00:00:00.1000000Z hello\n2026-01-01T00:00:00.2000000Z ##[endgroup]')).toBe(
      'hello',
    );
  });
});
