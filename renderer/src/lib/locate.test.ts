// Tests for finding a failure's file:line in an attempt's diff and gate output.
import { describe, expect, it } from 'vitest';
import { diffFileNamed, outputLineFor, samePath } from './locate';

describe('locate', () => {
  it('matches paths by suffix, not by a partial name', () => {
    expect(samePath('/home/u/wt/src/a.ts', 'src/a.ts')).toBe(true);
    expect(samePath('./src/a.ts', 'src/a.ts')).toBe(true);
    expect(samePath('src/aa.ts', 'a.ts')).toBe(false);
  });

  it("names the diff's file a failure's path points at, relative or absolute, and no other", () => {
    const paths = ['src/a.ts', 'src/b.ts'];
    expect(diffFileNamed(paths, 'src/a.ts')).toBe('src/a.ts');
    expect(diffFileNamed(paths, '/abs/wt/src/b.ts')).toBe('src/b.ts');
    expect(diffFileNamed(paths, 'src/c.ts')).toBeNull();
    expect(diffFileNamed(paths, 'a.ts')).toBe('src/a.ts');
    expect(diffFileNamed(paths, 'xa.ts')).toBeNull();
  });

  it('finds file:line in output before a mere mention of the file, and ignores a longer line number', () => {
    const out = 'at src/a.ts:110\nsee a.ts\n\u001b[31mFAIL\u001b[0m src/a.ts:11:4';
    expect(outputLineFor(out, 'src/a.ts', 11)).toBe(2);
    expect(outputLineFor(out, 'src/a.ts', 5)).toBe(0);
    expect(outputLineFor('x\nsrc/r.ts(41,7): error', 'src/r.ts', 41)).toBe(1);
    expect(outputLineFor(out, 'src/z.ts', 1)).toBeNull();
  });
});
