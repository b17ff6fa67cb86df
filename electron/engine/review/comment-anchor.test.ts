// A comment on a later diff: moved with the lines around it, found again by its text, or outdated.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../testing/temp-repo';
import { moveAnchor } from './comment-anchor';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}`).join('\n') + '\n';

function diffTo(before: string, after: string): string {
  const repo = makeRepo({ 'f.txt': before });
  writeFileSync(join(repo, 'f.txt'), after);
  return execFileSync('git', ['diff', '--no-color'], { cwd: repo, encoding: 'utf8' });
}

describe('moveAnchor', () => {
  it('shifts a comment below inserted lines, keeps a range, and finds lines moved far away by their text', () => {
    const after = `top\n${lines(20)}`;
    expect(moveAnchor({ file: 'f.txt', line: 10, endLine: 11, text: 'l10\nl11' }, diffTo(lines(20), after), after)).toEqual({ line: 11, endLine: 12 });
    // l3..l4 moved to the end (a delete and an add): found by their text.
    const moved = lines(20).replace('l3\nl4\n', '') + 'l3\nl4\n';
    expect(moveAnchor({ file: 'f.txt', line: 3, endLine: 4, text: 'l3\nl4' }, diffTo(lines(20), moved), moved)).toEqual({ line: 19, endLine: 20 });
  });

  it('is outdated when the lines were rewritten, when their text is found twice, or when the file is gone', () => {
    const rewritten = lines(20).replace('l7\n', 'L7\n');
    expect(moveAnchor({ file: 'f.txt', line: 7, endLine: 7, text: 'l7' }, diffTo(lines(20), rewritten), rewritten)).toBeNull();
    const twice = lines(20).replace('l7\n', 'x\n') + 'l7\nl7\n';
    expect(moveAnchor({ file: 'f.txt', line: 7, endLine: 7, text: 'l7' }, diffTo(lines(20), twice), twice)).toBeNull();
    expect(moveAnchor({ file: 'f.txt', line: 7, endLine: 7, text: 'l7' }, '', null)).toBeNull();
    // No change to the file: the same place.
    expect(moveAnchor({ file: 'f.txt', line: 7, endLine: 7, text: 'l7' }, '', lines(20))).toEqual({ line: 7, endLine: 7 });
  });
});
