// The pull-request loop's words (pure): the CI fix step's prompt, the log lines it keeps, the reply on a review
// thread, and `--fix`'s list. The loop itself runs end to end in electron/cli/pr-loop-*.test.ts.
import { describe, expect, it } from 'vitest';
import { classifyCiFailure } from './ci-classify';
import { ciFixStep, parseFix, relevantLogLines, threadReply } from './pr-loop';

const LOG = [
  '2026-01-01T00:00:00.0000000Z ##[group]Run node test.js',
  ...Array.from({ length: 200 }, (_, i) => `2026-01-01T00:00:00.0000000Z noise line ${i}`),
  '2026-01-01T00:00:01.0000000Z TAP version 14',
  '2026-01-01T00:00:01.0000000Z not ok 1 - the notes are mended',
  '2026-01-01T00:00:01.0000000Z 1..1',
  '2026-01-01T00:00:01.0000000Z ##[error]Process completed with exit code 1.',
].join('\n');

describe('the pull-request loop’s words', () => {
  it('a fix step names the check, its parsed failures, the log’s relevant lines (not its noise) and attempt k of n', () => {
    const v = classifyCiFailure({ checkName: 'test', conclusion: 'failure', log: LOG, passedOnSameCommit: false });
    expect(v.ciClass).toBe('real');
    const step = ciFixStep('test', v, 2, 3, 'abcdef0123456789');
    expect(step.title).toBe('Fix CI: test');
    expect(step.prompt).toContain('attempt 2 of 3 at fixing CI (limits.ci_failure = 3)');
    expect(step.prompt).toContain('- the notes are mended');
    expect(step.prompt).toContain('not ok 1 - the notes are mended');
    expect(step.prompt).not.toContain('noise line 50');
    expect(relevantLogLines('a\nb\nc')).toBe('a\nb\nc');
  });

  it('a thread’s reply: the commit that addressed it, or why not in the agent’s words', () => {
    expect(threadReply({ verdict: 'done', answer: 'renamed' }, 'c'.repeat(40))).toBe(`Addressed in ${'c'.repeat(40)}. renamed`);
    expect(threadReply({ verdict: 'declined', answer: 'the name is the API’s' }, 'c'.repeat(40))).toMatch(
      /^Not changed \(round commit cccccccc\): the name is the API’s$/,
    );
    expect(threadReply({ verdict: 'unanswered', answer: null }, null)).toMatch(/^Not addressed/);
  });

  it('--fix: ci by default with --watch, a list, none; anything else refused', () => {
    expect([...parseFix(undefined, true)]).toEqual(['ci']);
    expect([...parseFix(undefined, false)]).toEqual([]);
    expect([...parseFix('ci,review', true)]).toEqual(['ci', 'review']);
    expect([...parseFix('none', true)]).toEqual([]);
    expect(() => parseFix('ci,lint', true)).toThrow(/--fix takes ci, review/);
  });
});
