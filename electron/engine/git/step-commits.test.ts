import { describe, expect, it } from 'vitest';
import { parseStepCommits } from './step-commits';

describe('parseStepCommits', () => {
  it('keeps step commits, oldest first, ignoring others', () => {
    const log = ['c3\tstep 2: Second', 'r1\trescue: step 3 unfinished', 'c2\tfix typo', 'c1\tstep 1: First', ''].join('\n');
    expect(parseStepCommits(log)).toEqual([
      { index: 1, sha: 'c1', subject: 'step 1: First' },
      { index: 2, sha: 'c3', subject: 'step 2: Second' },
    ]);
  });

  it('keeps the first commit of a step seen twice, and needs the exact prefix', () => {
    const log = ['b\tstep 1: again', 'x\tStep 2: capital', 'y\tmy step 3: not at start', 'a\tstep 1: first'].join('\n');
    expect(parseStepCommits(log)).toEqual([{ index: 1, sha: 'a', subject: 'step 1: first' }]);
  });

  it('returns nothing for an empty log', () => {
    expect(parseStepCommits('')).toEqual([]);
  });
});
