// The statistics' pull-request numbers from the rounds kept with each run's pr: CI fix cost and what it bought,
// flaky rate per check and per test, infrastructure re-runs, review rounds.
import { describe, expect, it } from 'vitest';
import type { PrDoc } from '../../../shared/pull-request';
import { prRoundsMarkdown, prRoundsStats } from './pr-rounds';

const pr = (n: number, merged: boolean, rounds: PrDoc['rounds']): PrDoc => ({
  number: n,
  url: `https://example.test/pull/${n}`,
  state: merged ? 'closed' : 'open',
  headSha: 'a'.repeat(40),
  merged,
  checks: [],
  rounds,
});

describe('pull-request rounds in the statistics', () => {
  it('counts fix rounds and their cost, merges after a fix, re-runs, flaky checks and tests, review rounds', () => {
    const s = prRoundsStats([
      pr(1, true, [
        { kind: 'ci', trigger: 'test', outcome: 'flaky', attempts: 0, costUsd: 0, tests: ['settles'] },
        { kind: 'ci', trigger: 'test', outcome: 'pushed', attempts: 2, costUsd: 0.5, tests: ['adds'] },
      ]),
      pr(2, false, [
        { kind: 'ci', trigger: 'test', outcome: 'flaky', attempts: 0, costUsd: 0, tests: ['settles'] },
        { kind: 'ci', trigger: 'lint', outcome: 'rerun', attempts: 0, costUsd: 0 },
        { kind: 'ci', trigger: 'test', outcome: 'failed', attempts: 1, costUsd: 0.25 },
        { kind: 'review', trigger: 'review 9', outcome: 'answered', attempts: 1, costUsd: 0.1 },
      ]),
    ]);
    expect(s).toEqual({
      pullRequests: 2,
      merged: 1,
      ciFixRounds: 2,
      ciFixesPushed: 1,
      ciFixCostUsd: 0.75,
      ciFixUnknownCost: false,
      mergedAfterCiFix: 1,
      infrastructureReruns: 1,
      brokenOnBase: 0,
      flakyByCheck: [{ check: 'test', flaky: 2, rounds: 4, rate: 0.5 }],
      flakyTests: [{ check: 'test', test: 'settles', count: 2 }],
      reviewRounds: 1,
      reviewCostUsd: 0.1,
    });
    const md = prRoundsMarkdown(s);
    expect(md).toContain('2 pull requests watched, 1 merged.');
    expect(md).toContain('CI fix rounds: 2 (1 pushed), $0.75; 1 pull request merged after one.');
    expect(md).toContain('Flaky tests: settles (test) ×2.');
  });

  it('a period with no pull request says nothing in the report', () => {
    expect(prRoundsMarkdown(prRoundsStats([]))).toBe('');
  });
});
