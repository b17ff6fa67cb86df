// The pull request's body written from the run: steps with commits, what was retried and why, gates, cost; text the
// run did not write kept to one bounded line and unable to break out of its code span.
import { describe, expect, it } from 'vitest';
import type { StatusDocument } from '../../../shared/domain';
import { pullBody, pullTitle } from './pull-body';

type Attempt = StatusDocument['steps'][number]['attempts'][number];

function attempt(n: number, outcome: Attempt['outcome'], extra: Partial<Attempt> = {}): Attempt {
  return {
    n,
    outcome,
    errorClass: null,
    model: 'm',
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0.01,
    decision: null,
    fingerprint: null,
    round: 0,
    failures: [],
    ...extra,
  };
}

const doc = {
  id: 'run1',
  status: 'succeeded',
  reason: null,
  repo: '/r',
  branch: 'ratchet/x',
  worktree: '/w',
  baseCommit: 'b',
  costUsd: 0.03,
  steps: [
    {
      index: 1,
      title: 'Add add()',
      status: 'succeeded',
      commit: 'aaaaaaaaaaaa',
      attempts: [
        attempt(1, 'failed', {
          errorClass: 'test_failure',
          failures: [{ name: 'adds `two` numbers\nsecond line', file: 'a.test.js', line: 3, expected: null, actual: null }],
        }),
        attempt(2, 'passed'),
      ],
    },
    { index: 2, title: 'Add sub()', status: 'succeeded', commit: 'bbbbbbbbbbbb', attempts: [attempt(3, 'passed')] },
  ],
  resumes: [],
} as StatusDocument;

describe('the pull request written from the run', () => {
  it('lists each step with its commit, each retry with its class and first failure, the gates that passed, the cost', () => {
    const body = pullBody({
      doc,
      taskTitle: 'Calculator',
      taskDescription: 'Make a calculator.',
      gatesPassed: new Map([
        [1, ['test']],
        [2, ['test', 'lint']],
      ]),
    });
    expect(body).toContain('Make a calculator.');
    expect(body).toContain('1. **Add add()** — `aaaaaaaa` (2 attempts)');
    expect(body).toContain('   - attempt 1 failed: test failure `` adds `two` numbers second line ``');
    expect(body).toContain('2. **Add sub()** — `bbbbbbbb`');
    expect(body).toContain("Gates passed on each step's final commit: `lint`, `test`.");
    expect(body).toContain('$0.03 over 3 attempts.');
  });

  it('a task from an issue says "Fixes #N" under its description (merging closes the issue); a task from elsewhere says nothing of it', () => {
    const body = pullBody({ doc, taskTitle: 'Calculator', taskDescription: 'Make a calculator.', gatesPassed: new Map(), issue: 12 });
    expect(body.startsWith('Make a calculator.\n\nFixes #12\n\n### Steps')).toBe(true);
    expect(pullBody({ doc, taskTitle: 'Calculator', taskDescription: 'Make a calculator.', gatesPassed: new Map() })).not.toContain('Fixes');
  });

  it('a title is one bounded line', () => {
    expect(pullTitle('Fix\nthe   bug')).toBe('Fix the bug');
    expect(pullTitle('x'.repeat(300))).toHaveLength(120);
    expect(pullTitle('  ')).toBe('Changes by Ratchet');
  });
});
