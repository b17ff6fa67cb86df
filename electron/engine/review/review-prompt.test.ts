// The round's words: every comment numbered with its place and hunk, the answers read back, the step they share.
import { describe, expect, it } from 'vitest';
import { commonStep, parseAnswers, reviewStep } from './review-prompt';

describe('reviewStep', () => {
  it('numbers every comment with its file, lines and hunk, and asks for one answer line each', () => {
    const s = reviewStep(
      [
        { id: 7, file: 'a.ts', line: 3, endLine: 3, body: 'Rename this.', hunk: '@@ -1 +1,3 @@\n+x' },
        { id: 9, file: 'b.ts', line: 10, endLine: 12, body: 'Why?', hunk: null },
      ],
      null,
    );
    expect(s.title).toBe('Address review (2 comments)');
    expect(s.prompt).toContain('### Comment 1: a.ts:3\n\nRename this.\n\n```diff\n@@ -1 +1,3 @@\n+x\n```');
    expect(s.prompt).toContain("### Comment 2: b.ts:10-12\n\nWhy?\n\n(the line is outside the run's change)");
    expect(s.prompt).toContain('[1] done: <what you changed>');
    expect(reviewStep([{ id: 1, file: 'a', line: 1, endLine: 1, body: 'x', hunk: null }], 2).title).toBe('Address review of step 2 (1 comment)');
  });
});

describe('parseAnswers', () => {
  it('reads done and declined lines, continuation lines up to a blank one, and keeps the last answer a comment got', () => {
    const a = parseAnswers(
      'Summary.\n[1] done: fixed\n- [2] Declined — not needed\nbecause of X\n\nunrelated\n**[3] done**: first\n[3] not done: changed my mind\n\n[x] done: no',
    );
    expect([...a.values()]).toEqual([
      { n: 1, verdict: 'done', text: 'fixed' },
      { n: 2, verdict: 'declined', text: 'not needed\nbecause of X' },
      { n: 3, verdict: 'declined', text: 'changed my mind' },
    ]);
    expect(parseAnswers('').size).toBe(0);
  });
});

describe('commonStep', () => {
  it('is the step every comment lies in, else null', () => {
    expect(commonStep([2, 2])).toBe(2);
    expect(commonStep([2, 3])).toBeNull();
    expect(commonStep([2, null])).toBeNull();
    expect(commonStep([])).toBeNull();
  });
});
