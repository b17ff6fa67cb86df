// The continuation decision of retry/resume, without git or a store.
import { describe, expect, it } from 'vitest';
import { decideContinuation, type ContinuationInput } from './continuation';
import type { ResumePlan } from './resume-plan';

const plan = (over: Partial<ResumePlan> = {}): ResumePlan => ({ nextStep: 2, required: [], blocked: false, ...over }) as ResumePlan;
const input = (over: Partial<ContinuationInput> = {}): ContinuationInput => ({
  kind: 'resume',
  run: { status: 'paused', wakeAt: null, baseBranch: 'main', baseCommit: 'b'.repeat(40) },
  plan: plan(),
  baseConflicts: [],
  repeatedFailures: 0,
  steps: [
    { index: 1, status: 'succeeded' },
    { index: 2, status: 'failed' },
    { index: 3, status: 'pending' },
    { index: 4, status: 'pending' },
  ],
  maxTurns: 100,
  ...over,
});

describe('decideContinuation', () => {
  it('refuses a blocked plan with the code the CLI maps to its exit', () => {
    const noPlan = decideContinuation(
      input({ plan: plan({ blocked: true, required: [{ code: 'no_plan', message: 'x', options: ['abort'], safeDefault: 'abort' }] }) }),
    );
    expect(noPlan.refused).toEqual({ code: 'no_plan', message: 'No plan found.' });
    const noBranch = decideContinuation(
      input({ plan: plan({ blocked: true, required: [{ code: 'no_branch', message: 'x', options: ['abort'], safeDefault: 'abort' }] }) }),
    );
    expect(noBranch.refused?.code).toBe('no_branch');
  });

  it("runs each required recovery with the user's choice or its safe default, and notes missing commits", () => {
    const d = decideContinuation(
      input({
        plan: plan({
          required: [
            { code: 'missing_commits', message: 'step 1 will be redone', options: [], safeDefault: 'abort' },
            { code: 'dirty_tree', message: 'dirty', options: ['rescue_commit', 'stash', 'abort'], safeDefault: 'rescue_commit' },
            { code: 'wrong_branch', message: 'wrong', options: ['checkout_branch', 'abort'], safeDefault: 'checkout_branch' },
          ] as ResumePlan['required'],
        }),
        choices: { dirty_tree: 'stash' },
      }),
    );
    expect(d.steps.map((s) => (s.kind === 'recover' ? `${s.action.code}:${s.option}` : s.kind === 'note' ? s.text : s.kind))).toEqual([
      'step 1 will be redone',
      'dirty_tree:stash',
      'wrong_branch:checkout_branch',
    ]);
  });

  it('tells the user and the agent when the base moved and conflicts, and warns of repeated failures', () => {
    const d = decideContinuation(input({ baseConflicts: ['a.ts', 'b.ts'], repeatedFailures: 3 }));
    expect(d.steps.map((s) => s.kind)).toEqual(['baseMoved', 'repeatedFailures']);
    expect(d.agentNotes[0]).toContain('git diff bbbbbbbbbb..main -- a.ts b.ts');
  });

  it('a failed step goes back to pending, a skipped one does not, and the turn budget follows what is left', () => {
    const d = decideContinuation(input());
    expect(d.toPending).toEqual([2]);
    // 3 of 4 steps left: 75 of 100 turns.
    expect(d.turnBudget).toBe(75);
    const skip = decideContinuation(input({ skipStep: true }));
    expect(skip.steps).toContainEqual({ kind: 'skip', step: 2 });
    expect(skip.toPending).toEqual([]);
    // 2 of 3 counted steps left.
    expect(skip.turnBudget).toBe(67);
  });

  it('a retry starts a new round; a parked run resumed at its wake time continues its round', () => {
    expect(decideContinuation(input({ kind: 'retry' })).newRound).toBe(true);
    expect(decideContinuation(input()).newRound).toBe(true);
    expect(decideContinuation(input({ run: { status: 'waiting', wakeAt: '2026-01-01T00:00:00Z', baseBranch: 'main', baseCommit: 'b' } })).newRound).toBe(false);
  });
});
