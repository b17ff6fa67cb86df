import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILE_LINES_MAX_BYTES, fileLines } from './file-lines';
import { makeRepo, sh } from '../testing/temp-repo';

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('fileLines', () => {
  it('hands over a range of a file as a commit holds it, fewer at its end, with the file’s line count', async () => {
    const repo = makeRepo({ 'src/a.txt': TEN, 'b.bin': 'PNG\0\0\x01binary' });
    const head = sh(repo, 'rev-parse', 'HEAD');
    // The worktree changing after the commit changes nothing: the object store is read.
    writeFileSync(join(repo, 'src/a.txt'), 'changed\n');
    expect(await fileLines(repo, head, 'src/a.txt', 3, 2)).toEqual({ lines: ['line 3', 'line 4'], total: 10 });
    expect(await fileLines(repo, head, 'src/a.txt', 9, 20)).toEqual({ lines: ['line 9', 'line 10'], total: 10 });
    expect(await fileLines(repo, head, 'src/a.txt', 11, 5)).toEqual({ lines: [], total: 10 });
    await expect(fileLines(repo, head, 'b.bin', 1, 5)).rejects.toThrow('b.bin is a binary file; it has no lines to show.');
    await expect(fileLines(repo, head, 'nope.txt', 1, 5)).rejects.toThrow(/has no file nope.txt/);
    await expect(fileLines(repo, head, '../etc/passwd', 1, 5)).rejects.toThrow(/not a path inside the repository/);
  });

  it('refuses a file over the size bound without reading its lines', async () => {
    const repo = makeRepo({ 'big.txt': 'x'.repeat(80) + '\n' });
    writeFileSync(join(repo, 'big.txt'), ('x'.repeat(99) + '\n').repeat(FILE_LINES_MAX_BYTES / 100 + 1));
    sh(repo, 'commit', '-qam', 'big');
    await expect(fileLines(repo, sh(repo, 'rev-parse', 'HEAD'), 'big.txt', 1, 5)).rejects.toThrow(
      /big.txt is 5.0 MB; files over 5 MB are not shown line by line/,
    );
  });
});
