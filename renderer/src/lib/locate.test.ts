// Tests for finding a failure's file:line in an attempt's diff and gate output.
import { describe, expect, it } from 'vitest';
import { diffLineFor, outputLineFor, samePath } from './locate';

const DIFF = [
  'diff --git a/src/a.ts b/src/a.ts',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -10,3 +10,3 @@ fn',
  ' ten',
  '-old eleven',
  '+new eleven',
  ' twelve',
  'diff --git a/src/b.ts b/src/b.ts',
  '@@ -1 +1 @@',
  '+one',
];

describe('locate', () => {
  it('matches paths by suffix, not by a partial name', () => {
    expect(samePath('/home/u/wt/src/a.ts', 'src/a.ts')).toBe(true);
    expect(samePath('./src/a.ts', 'src/a.ts')).toBe(true);
    expect(samePath('src/aa.ts', 'a.ts')).toBe(false);
  });

  it('finds the new-line number in a hunk, skipping deleted lines, else the file header', () => {
    expect(diffLineFor(DIFF, 'src/a.ts', 11)).toBe(6);
    expect(diffLineFor(DIFF, '/abs/wt/src/a.ts', 12)).toBe(7);
    expect(diffLineFor(DIFF, 'src/a.ts', 99)).toBe(0);
    expect(diffLineFor(DIFF, 'src/b.ts', 1)).toBe(10);
    expect(diffLineFor(DIFF, 'src/c.ts', 1)).toBeNull();
  });

  it('finds file:line in output before a mere mention of the file, and ignores a longer line number', () => {
    const out = 'at src/a.ts:110\nsee a.ts\n\u001b[31mFAIL\u001b[0m src/a.ts:11:4';
    expect(outputLineFor(out, 'src/a.ts', 11)).toBe(2);
    expect(outputLineFor(out, 'src/a.ts', 5)).toBe(0);
    expect(outputLineFor('x\nsrc/r.ts(41,7): error', 'src/r.ts', 41)).toBe(1);
    expect(outputLineFor(out, 'src/z.ts', 1)).toBeNull();
  });
});
