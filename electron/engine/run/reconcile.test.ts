import { describe, expect, it } from 'vitest';
import { reconcile, retryTurnBudget } from './reconcile';

const commit = (index: number, sha = `c${index}`) => ({ index, sha, subject: `step ${index}: s${index}` });

describe('reconcile', () => {
  it('agrees when store and git agree', () => {
    const r = reconcile(
      [
        { index: 1, status: 'succeeded', commit: 'c1' },
        { index: 2, status: 'failed', commit: null },
        { index: 3, status: 'pending', commit: null },
      ],
      [commit(1)],
    );
    expect(r).toEqual({ completed: [{ index: 1, sha: 'c1', subject: 'step 1: s1' }], adopted: [], demoted: [], outsidePlan: [], next: 2 });
  });

  it('adopts a commit the store does not know (crash between commit and checkpoint) instead of redoing the step', () => {
    const r = reconcile(
      [
        { index: 1, status: 'succeeded', commit: 'c1' },
        { index: 2, status: 'running', commit: null },
        { index: 3, status: 'pending', commit: null },
      ],
      [commit(1), commit(2)],
    );
    expect(r.adopted).toEqual([{ index: 2, sha: 'c2' }]);
    expect(r.next).toBe(3);
  });

  it('does not count a store row whose commit is missing from the branch', () => {
    const r = reconcile(
      [
        { index: 1, status: 'succeeded', commit: 'gone' },
        { index: 2, status: 'pending', commit: null },
      ],
      [],
    );
    expect(r.demoted).toEqual([1]);
    expect(r.next).toBe(1);
  });

  it('prefers the commit git has when the store recorded another sha', () => {
    const r = reconcile([{ index: 1, status: 'succeeded', commit: 'old' }], [commit(1, 'new')]);
    expect(r.completed[0]?.sha).toBe('new');
    expect(r.adopted).toEqual([{ index: 1, sha: 'new' }]);
    expect(r.next).toBeNull();
  });

  it('reports step commits beyond a shortened plan and skips skipped steps', () => {
    const r = reconcile(
      [
        { index: 1, status: 'skipped', commit: null },
        { index: 2, status: 'pending', commit: null },
      ],
      [commit(5)],
    );
    expect(r.outsidePlan).toEqual([5]);
    expect(r.next).toBe(2);
  });
});

describe('retryTurnBudget (seed 000)', () => {
  it('is proportional to the remaining steps, at least 15, at most max_turns', () => {
    expect(retryTurnBudget(4, 10, 40)).toBe(16);
    expect(retryTurnBudget(1, 10, 40)).toBe(15);
    expect(retryTurnBudget(9, 10, 40)).toBe(36);
    expect(retryTurnBudget(1, 10, 10)).toBe(10);
    expect(retryTurnBudget(10, 10, 40)).toBe(40);
  });
});
