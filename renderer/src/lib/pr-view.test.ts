// The PR panel's words: a pending or missing check is never green, required checks come first, the headline says what
// it waits for or what failed, reviews and mergeability in plain words.
import { describe, expect, it } from 'vitest';
import type { PrPanelDoc } from '../../../shared/contract';
import { checkMark, mergeableLine, orderedChecks, prHeadline, reviewLine, roundLine } from './pr-view';

const base: PrPanelDoc = {
  pr: { number: 7, url: 'u', state: 'open', headSha: 'abcdef0123456789', merged: false, checks: [], rounds: [] },
  options: { fix: ['ci'], merge: null },
  watching: true,
  live: { reviews: [], mergeable: true, mergeableState: 'clean', verdict: 'waiting', waitingFor: [] },
  error: null,
  progress: null,
};
const withChecks = (checks: NonNullable<PrPanelDoc['pr']>['checks'], p: Partial<PrPanelDoc> = {}): PrPanelDoc => ({
  ...base,
  ...p,
  pr: { ...base.pr!, checks },
});

describe('the PR panel’s words', () => {
  it('a check still running, or required and not reported yet, is pending, never passed', () => {
    expect(checkMark({ name: 't', conclusion: null, required: true }, true)).toEqual({ tone: 'attention', label: 'pending' });
    expect(checkMark({ name: 't', conclusion: 'success', required: true }, true)).toEqual({ tone: 'good', label: 'passed' });
    expect(checkMark({ name: 't', conclusion: 'timed_out', required: false }, true)).toEqual({ tone: 'bad', label: 'timed out' });
    const pendingRequired = withChecks([
      { name: 'lint', conclusion: 'success', required: false },
      { name: 'test', conclusion: null, required: true },
    ]);
    expect(prHeadline(pendingRequired)).toEqual({ tone: 'attention', text: 'Waiting for test.' });
    expect(orderedChecks(pendingRequired.pr!.checks).map((c) => c.name)).toEqual(['test', 'lint']);
  });

  it('the headline names a failed check, a change request, or says every required check passed on the head', () => {
    expect(prHeadline(withChecks([{ name: 'test', conclusion: 'failure', required: true }]))).toEqual({ tone: 'bad', text: 'test failed on abcdef01.' });
    const green = withChecks([
      { name: 'test', conclusion: 'success', required: true },
      { name: 'docs', conclusion: 'failure', required: false },
    ]);
    expect(prHeadline(green)).toEqual({ tone: 'good', text: 'Every required check passed on abcdef01.' });
    const changes = { ...green, live: { ...base.live!, reviews: [{ author: 'mara', state: 'CHANGES_REQUESTED' as const }] } };
    expect(prHeadline(changes)).toEqual({ tone: 'bad', text: 'mara requested changes.' });
    expect(reviewLine(changes)).toEqual({ tone: 'bad', text: 'Changes requested by mara' });
    expect(prHeadline(withChecks([], { watching: true }))).toEqual({ tone: 'attention', text: 'Waiting for the first check to report.' });
    expect(prHeadline({ ...green, pr: { ...green.pr!, merged: true } })).toEqual({ tone: 'good', text: 'Merged.' });
  });

  it('mergeability and rounds in plain words', () => {
    expect(mergeableLine({ ...base, live: { ...base.live!, mergeable: null } }).text).toBe('GitHub is still working it out');
    expect(mergeableLine({ ...base, live: { ...base.live!, mergeable: false, mergeableState: 'dirty' } }).tone).toBe('bad');
    expect(mergeableLine(base)).toEqual({ tone: 'good', text: 'No conflicts' });
    expect(roundLine({ kind: 'ci', trigger: 'test', outcome: 'fixed', attempts: 1, costUsd: 0.12 })).toBe('CI: test — fixed (1 attempt, $0.12)');
  });
});
