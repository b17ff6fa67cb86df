// The watch's verdict on one look, and its wait that grows while nothing changes.
import { describe, expect, it } from 'vitest';
import type { ForgeCheck, PullRequest, Review } from './forge';
import { nextWaitMs, watchVerdict, type WatchLook } from './pr-watch';

const pr: PullRequest = {
  number: 3,
  url: 'u',
  state: 'open',
  merged: false,
  draft: false,
  title: 't',
  body: '',
  headBranch: 'h',
  headSha: 'abc',
  baseBranch: 'main',
  baseSha: 'b'.repeat(40),
  mergeable: true,
  mergeableState: 'clean',
};
const check = (name: string, status: ForgeCheck['status'], conclusion: ForgeCheck['conclusion'] = null): ForgeCheck => ({
  name,
  kind: 'check_run',
  id: 1,
  status,
  conclusion,
  detailsUrl: null,
});
const review = (author: string, state: Review['state']): Review => ({ id: author.length, author, state, body: '', commitSha: 'abc' });
const look = (p: Partial<WatchLook>): WatchLook => ({ pr, required: [], checks: [], reviews: [], ...p });

describe('the watch’s verdict', () => {
  it('a required check that is missing or still running is never green, whatever the others say', () => {
    expect(watchVerdict(look({ required: ['test', 'deploy'], checks: [check('test', 'completed', 'success')] }))).toEqual({
      kind: 'waiting',
      waitingFor: ['deploy'],
    });
    expect(watchVerdict(look({ required: ['test'], checks: [check('test', 'in_progress')] }))).toEqual({ kind: 'waiting', waitingFor: ['test'] });
    expect(watchVerdict(look({ checks: [] }))).toEqual({ kind: 'waiting', waitingFor: [] });
  });

  it('with required checks only they decide; without, every check does', () => {
    const checks = [check('test', 'completed', 'success'), check('lint', 'completed', 'failure')];
    expect(watchVerdict(look({ required: ['test'], checks }))).toEqual({ kind: 'green' });
    expect(watchVerdict(look({ checks }))).toMatchObject({ kind: 'failing', failing: [{ name: 'lint' }] });
  });

  it('a reviewer’s standing request for changes holds it; their later approval lifts it, a later comment does not', () => {
    const checks = [check('test', 'completed', 'success')];
    expect(watchVerdict(look({ checks, reviews: [review('ann', 'CHANGES_REQUESTED'), review('ann', 'COMMENTED')] }))).toMatchObject({
      kind: 'changes_requested',
    });
    expect(watchVerdict(look({ checks, reviews: [review('ann', 'CHANGES_REQUESTED'), review('ann', 'APPROVED')] }))).toEqual({ kind: 'green' });
  });

  it('merged and closed end the watch', () => {
    expect(watchVerdict(look({ pr: { ...pr, merged: true, state: 'closed' } }))).toEqual({ kind: 'merged' });
    expect(watchVerdict(look({ pr: { ...pr, state: 'closed' } }))).toEqual({ kind: 'closed' });
  });
});

describe('the wait between looks', () => {
  it('grows by half while nothing changes, up to the longest, and drops to the shortest on a change', () => {
    let w = 5_000;
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) seen.push((w = nextWaitMs(w, false, 5_000, 120_000)));
    expect(seen.slice(0, 3)).toEqual([7_500, 11_250, 16_875]);
    expect(seen.at(-1)).toBe(120_000);
    expect(nextWaitMs(120_000, true, 5_000, 120_000)).toBe(5_000);
  });
});
