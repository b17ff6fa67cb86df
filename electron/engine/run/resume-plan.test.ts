import { describe, expect, it } from 'vitest';
import { resumePlan, type ResumeFacts } from './resume-plan';

const facts = (over: Partial<ResumeFacts> = {}): ResumeFacts => ({
  status: 'interrupted',
  reason: null,
  steps: [
    { index: 1, title: 'one', status: 'succeeded', commit: 'c1', attempts: 1, lastError: null },
    { index: 2, title: 'two', status: 'pending', commit: null, attempts: 0, lastError: null },
  ],
  worktreeExists: true,
  branchExists: true,
  worktreeBranch: 'ratchet/x',
  runBranch: 'ratchet/x',
  dirty: false,
  planPresent: true,
  missingCommits: [],
  ...over,
});

describe('resumePlan (seed 003 §2.1)', () => {
  it('completed → the next step', () => {
    const p = resumePlan(facts());
    expect(p).toMatchObject({ lastStatus: 'completed', nextStep: 2, action: 'next_step', blocked: false, required: [] });
    expect(p.completed).toEqual([{ index: 1, title: 'one', commit: 'c1' }]);
  });

  it('in_progress → retry that step, or skip', () => {
    const p = resumePlan(facts({ steps: [{ index: 1, title: 'one', status: 'running', commit: null, attempts: 2, lastError: null }] }));
    expect(p).toMatchObject({ lastStatus: 'in_progress', nextStep: 1, action: 'retry_step', canSkip: true });
    expect(p.reason).toContain('interrupted after 2 attempts');
  });

  it('failed → back to the step that produced the rejected work', () => {
    const p = resumePlan(
      facts({
        steps: [
          { index: 1, title: 'one', status: 'succeeded', commit: 'c1', attempts: 1, lastError: null },
          { index: 2, title: 'two', status: 'failed', commit: null, attempts: 4, lastError: '2 tests failed' },
        ],
      }),
    );
    expect(p).toMatchObject({ lastStatus: 'failed', nextStep: 2, action: 'retry_step' });
    expect(p.reason).toContain('2 tests failed');
  });

  it('waiting_approval → ask', () => {
    expect(resumePlan(facts({ status: 'waiting_approval' }))).toMatchObject({ lastStatus: 'waiting_approval', action: 'approve' });
  });

  it('announces a phase rollover', () => {
    const p = resumePlan(
      facts({
        steps: [
          { index: 1, title: 'one', status: 'succeeded', commit: 'c1', phase: 'Backend', attempts: 1, lastError: null },
          { index: 2, title: 'two', status: 'pending', commit: null, phase: 'Frontend', attempts: 0, lastError: null },
        ],
      }),
    );
    expect(p.phaseRollover).toBe('Phase "Backend" is complete; continuing with phase "Frontend"');
  });

  it('all done → finish', () => {
    expect(resumePlan(facts({ steps: [{ index: 1, title: 'one', status: 'succeeded', commit: 'c1', attempts: 1, lastError: null }] }))).toMatchObject({
      action: 'finish',
      nextStep: null,
    });
  });
});

describe('resumePlan checks (seed 003 §3)', () => {
  it('offers recovery options for a wrong branch and a dirty tree, with safe defaults', () => {
    const p = resumePlan(facts({ worktreeBranch: 'main', dirty: true }));
    expect(p.required.map((r) => [r.code, r.options, r.safeDefault])).toEqual([
      ['wrong_branch', ['checkout_branch', 'recreate_worktree', 'abort'], 'checkout_branch'],
      ['dirty_tree', ['rescue_commit', 'stash', 'abort'], 'rescue_commit'],
    ]);
    expect(p.blocked).toBe(false);
  });

  it('offers to recreate a missing worktree from the branch', () => {
    expect(resumePlan(facts({ worktreeExists: false, worktreeBranch: null })).required[0]).toMatchObject({
      code: 'no_worktree',
      safeDefault: 'recreate_worktree',
    });
  });

  it('is blocked without the branch or without a plan', () => {
    expect(resumePlan(facts({ branchExists: false })).blocked).toBe(true);
    const p = resumePlan(facts({ planPresent: false }));
    expect(p.blocked).toBe(true);
    expect(p.required.find((r) => r.code === 'no_plan')?.message).toBe('No plan found.');
  });

  it('warns that steps whose commits are missing will run again', () => {
    expect(resumePlan(facts({ missingCommits: [1] })).required[0]?.message).toContain('step 1 as done, but the branch has no commit');
  });
});

describe('resumePlan when the run never got its branch', () => {
  it('offers to create the branch again when nothing was committed, and is blocked when commits were lost', () => {
    const pending = [{ index: 1, title: 'one', status: 'pending' as const, commit: null, attempts: 0, lastError: null }];
    const p = resumePlan(facts({ branchExists: false, worktreeExists: false, worktreeBranch: null, steps: pending }));
    expect(p.blocked).toBe(false);
    expect(p.required[0]).toMatchObject({ code: 'no_branch', safeDefault: 'recreate_worktree' });
    expect(resumePlan(facts({ branchExists: false, worktreeExists: false, worktreeBranch: null })).blocked).toBe(true);
  });
});
