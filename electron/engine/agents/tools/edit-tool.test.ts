// Tests the text editor tool's commands, errors and input validation against a real temporary worktree.
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEditTool } from './edit-tool';

let base: string;
let root: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'ratchet-edit-')));
  root = path.join(base, 'wt');
  await mkdir(root);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const file = (rel: string): string => path.join(root, rel);
const read = (rel: string): Promise<string> => readFile(file(rel), 'utf8');

async function ok(input: unknown, opts?: { maxCharacters?: number }): Promise<string> {
  const out = await runEditTool(root, input, opts);
  expect(out.isError, out.content).toBe(false);
  return out.content;
}

async function fails(input: unknown, opts?: { maxCharacters?: number }): Promise<string> {
  const out = await runEditTool(root, input, opts);
  expect(out.isError, out.content).toBe(true);
  return out.content;
}

describe('view', () => {
  beforeEach(async () => {
    await writeFile(file('five.txt'), 'one\ntwo\nthree\nfour\nfive\n');
  });

  it('numbers lines like cat -n', async () => {
    const out = await ok({ command: 'view', path: 'five.txt' });
    expect(out).toBe("Here's the result of running `cat -n` on five.txt:\n     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n     5\tfive");
  });

  it('accepts an absolute path inside the worktree', async () => {
    const out = await ok({ command: 'view', path: file('five.txt') });
    expect(out).toContain('     5\tfive');
  });

  it('honours view_range, with -1 meaning to the end and an end past the last line clamped', async () => {
    expect(await ok({ command: 'view', path: 'five.txt', view_range: [2, 3] })).toMatch(/ {5}2\ttwo\n {5}3\tthree$/);
    const toEnd = await ok({ command: 'view', path: 'five.txt', view_range: [4, -1] });
    expect(toEnd).toMatch(/ {5}4\tfour\n {5}5\tfive$/);
    expect(toEnd).not.toContain('three');
    expect(await ok({ command: 'view', path: 'five.txt', view_range: [5, 99] })).toMatch(/\n {5}5\tfive$/);
  });

  it('rejects a view_range outside the file, naming the valid range', async () => {
    expect(await fails({ command: 'view', path: 'five.txt', view_range: [0, 2] })).toContain('between 1 and 5');
    expect(await fails({ command: 'view', path: 'five.txt', view_range: [6, -1] })).toContain('between 1 and 5');
    expect(await fails({ command: 'view', path: 'five.txt', view_range: [3, 2] })).toContain('at least 3');
  });

  it('shows CRLF files without the carriage returns', async () => {
    await writeFile(file('crlf.txt'), 'a\r\nb\r\n');
    expect(await ok({ command: 'view', path: 'crlf.txt' })).toMatch(/ {5}1\ta\n {5}2\tb$/);
  });

  it('says when a file is empty', async () => {
    await writeFile(file('empty.txt'), '');
    expect(await ok({ command: 'view', path: 'empty.txt' })).toBe('The file empty.txt is empty.');
  });

  it('refuses binary files', async () => {
    await writeFile(file('blob.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    expect(await fails({ command: 'view', path: 'blob.bin' })).toMatch(/blob\.bin looks like a binary file \(7 bytes\)/);
    await writeFile(file('latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await fails({ command: 'view', path: 'latin1.txt' })).toContain('binary');
  });

  it('bounds the output by maxCharacters, on a line boundary, with a note', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line number ${i + 1}`);
    await writeFile(file('big.txt'), `${lines.join('\n')}\n`);
    const out = await ok({ command: 'view', path: 'big.txt' }, { maxCharacters: 500 });
    const clip = out.indexOf('\n<response clipped');
    expect(clip).toBeGreaterThan(0);
    expect(clip).toBeLessThanOrEqual(500);
    const lastShown = out.slice(0, clip).split('\n').at(-1);
    expect(lastShown).toMatch(/^ +(\d+)\tline number \1$/);
    const n = Number(lastShown?.trim().split('\t')[0]);
    expect(out).toContain(`showing lines 1-${n} of 1000`);
    expect(out).toContain(`[${n + 1}, -1]`);
  });

  it('defaults to a 50 000 character bound', async () => {
    await writeFile(file('huge.txt'), `${'x'.repeat(99)}\n`.repeat(2000));
    const out = await ok({ command: 'view', path: 'huge.txt' });
    expect(out.length).toBeLessThan(50_300);
    expect(out.length).toBeGreaterThan(49_000);
    expect(out).toContain('<response clipped');
  });

  it('lists a directory two levels deep, without hidden items or node_modules', async () => {
    await mkdir(file('src/lib/deep'), { recursive: true });
    await mkdir(file('node_modules/pkg'), { recursive: true });
    await mkdir(file('.git'));
    await writeFile(file('.env'), 'X=1');
    await writeFile(file('src/index.ts'), '');
    await writeFile(file('src/.hidden.ts'), '');
    await writeFile(file('src/lib/util.ts'), '');
    await writeFile(file('src/lib/deep/too-deep.ts'), '');
    const out = await ok({ command: 'view', path: '.' });
    const entries = out.split('\n').slice(1);
    expect(entries).toEqual(['five.txt', 'src/', 'src/index.ts', 'src/lib/']);
    expect(out.split('\n')[0]).toContain('up to 2 levels deep in .');

    const abs = await ok({ command: 'view', path: file('src') });
    expect(abs.split('\n').slice(1)).toEqual([file('src/index.ts'), `${file('src/lib')}/`, `${file('src/lib/deep')}/`, file('src/lib/util.ts')]);
  });

  it('refuses view_range on a directory', async () => {
    expect(await fails({ command: 'view', path: '.', view_range: [1, 2] })).toContain('only allowed for files');
  });

  it('reports a missing path', async () => {
    expect(await fails({ command: 'view', path: 'nope.txt' })).toBe('The path nope.txt does not exist.');
  });

  it('refuses paths outside the worktree', async () => {
    const out = await fails({ command: 'view', path: '/etc/passwd' });
    expect(out).toContain('/etc/passwd');
    expect(out).toContain('must stay inside the worktree');
    expect(await fails({ command: 'view', path: '../' })).toContain('outside the worktree');
  });

  it('refuses reading through a symlink to outside', async () => {
    await mkdir(path.join(base, 'outside'));
    await writeFile(path.join(base, 'outside', 'secret.txt'), 'top secret');
    await symlink(path.join(base, 'outside', 'secret.txt'), file('innocent.txt'));
    const out = await fails({ command: 'view', path: 'innocent.txt' });
    expect(out).not.toContain('top secret');
    expect(out).toContain('outside the worktree');
  });
});

describe('create', () => {
  it('writes a new file, creating missing folders', async () => {
    const out = await ok({ command: 'create', path: 'a/b/c.ts', file_text: 'export const x = 1;\n' });
    // "1 line": the app shows this answer in the transcript.
    expect(out).toBe('File created successfully at a/b/c.ts (1 line).');
    expect(await read('a/b/c.ts')).toBe('export const x = 1;\n');
  });

  it('overwrites an existing file and says so', async () => {
    await writeFile(file('x.txt'), 'old');
    const out = await ok({ command: 'create', path: 'x.txt', file_text: 'new\ncontent\n' });
    expect(out).toContain('already existed and was overwritten');
    expect(await read('x.txt')).toBe('new\ncontent\n');
  });

  it('refuses to replace a directory', async () => {
    await mkdir(file('dir'));
    expect(await fails({ command: 'create', path: 'dir', file_text: 'x' })).toContain('is a directory');
  });

  it('refuses to write outside the worktree, through escapes or symlinked folders', async () => {
    await mkdir(path.join(base, 'outside'));
    await symlink(path.join(base, 'outside'), file('out-link'));
    expect(await fails({ command: 'create', path: '../escape.txt', file_text: 'x' })).toContain('must stay inside the worktree');
    expect(await fails({ command: 'create', path: 'out-link/new.txt', file_text: 'x' })).toContain('must stay inside the worktree');
    await expect(readFile(path.join(base, 'escape.txt'))).rejects.toThrow();
    await expect(readFile(path.join(base, 'outside', 'new.txt'))).rejects.toThrow();
  });

  it('refuses to write into .git', async () => {
    await mkdir(file('.git'));
    expect(await fails({ command: 'create', path: '.git/hooks/pre-commit', file_text: 'evil' })).toContain('.git');
    await expect(readFile(file('.git/hooks/pre-commit'))).rejects.toThrow();
  });
});

describe('str_replace', () => {
  beforeEach(async () => {
    await writeFile(file('code.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
  });

  it('replaces a unique occurrence and shows a numbered snippet', async () => {
    const out = await ok({ command: 'str_replace', path: 'code.ts', old_str: 'const b = 2;', new_str: 'const b = 20;\nconst bb = 21;' });
    expect(await read('code.ts')).toBe('const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n');
    expect(out).toContain('The file code.ts has been edited.');
    expect(out).toContain('     2\tconst b = 20;\n     3\tconst bb = 21;\n     4\tconst c = 3;');
  });

  it('deletes when new_str is omitted', async () => {
    await ok({ command: 'str_replace', path: 'code.ts', old_str: 'const b = 2;\n' });
    expect(await read('code.ts')).toBe('const a = 1;\nconst c = 3;\n');
  });

  it('errors when old_str does not appear, leaving the file alone', async () => {
    const out = await fails({ command: 'str_replace', path: 'code.ts', old_str: 'const z', new_str: 'y' });
    expect(out).toBe('No replacement was performed, old_str did not appear verbatim in code.ts.');
    expect(await read('code.ts')).toBe('const a = 1;\nconst b = 2;\nconst c = 3;\n');
  });

  it('errors when old_str appears more than once, naming the lines', async () => {
    const out = await fails({ command: 'str_replace', path: 'code.ts', old_str: 'const', new_str: 'let' });
    expect(out).toContain('occurs 3 times');
    expect(out).toContain('lines 1, 2, 3');
    expect(await read('code.ts')).toBe('const a = 1;\nconst b = 2;\nconst c = 3;\n');
  });

  it('caps the list of matching lines', async () => {
    await writeFile(file('many.txt'), 'x\n'.repeat(30));
    expect(await fails({ command: 'str_replace', path: 'many.txt', old_str: 'x', new_str: 'y' })).toContain(
      'occurs 30 times in many.txt, starting on lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 20 more;',
    );
  });

  it('counts overlapping occurrences as ambiguous', async () => {
    await writeFile(file('aaa.txt'), 'aaa\n');
    expect(await fails({ command: 'str_replace', path: 'aaa.txt', old_str: 'aa', new_str: 'b' })).toContain('occurs 2 times');
  });

  it('refuses an empty old_str', async () => {
    expect(await fails({ command: 'str_replace', path: 'code.ts', old_str: '', new_str: 'x' })).toContain('old_str is empty');
  });

  it('keeps CRLF line endings when the model writes \\n', async () => {
    await writeFile(file('win.txt'), 'alpha\r\nbeta\r\ngamma\r\n');
    await ok({ command: 'str_replace', path: 'win.txt', old_str: 'alpha\nbeta', new_str: 'alpha\nBETA\nbeta2' });
    expect(await read('win.txt')).toBe('alpha\r\nBETA\r\nbeta2\r\ngamma\r\n');
  });

  it('keeps LF line endings and files without a final newline', async () => {
    await writeFile(file('nofinal.txt'), 'x\ny');
    await ok({ command: 'str_replace', path: 'nofinal.txt', old_str: 'y', new_str: 'z' });
    expect(await read('nofinal.txt')).toBe('x\nz');
  });

  it('reports a missing file and refuses binaries', async () => {
    expect(await fails({ command: 'str_replace', path: 'missing.ts', old_str: 'a', new_str: 'b' })).toBe('The path missing.ts does not exist.');
    await writeFile(file('b.bin'), Buffer.from([1, 0, 2]));
    expect(await fails({ command: 'str_replace', path: 'b.bin', old_str: 'a', new_str: 'b' })).toContain('binary');
  });

  it('refuses to edit files in .git or outside the worktree', async () => {
    await mkdir(file('.git'));
    await writeFile(file('.git/config'), '[core]\n');
    expect(await fails({ command: 'str_replace', path: '.git/config', old_str: '[core]', new_str: '[evil]' })).toContain('.git');
    expect(await read('.git/config')).toBe('[core]\n');
    expect(await fails({ command: 'str_replace', path: '/etc/hostname', old_str: 'a', new_str: 'b' })).toContain('must stay inside the worktree');
  });
});

describe('insert', () => {
  beforeEach(async () => {
    await writeFile(file('list.txt'), 'one\ntwo\nthree\n');
  });

  it('inserts after the given line', async () => {
    const out = await ok({ command: 'insert', path: 'list.txt', insert_line: 2, insert_text: 'two and a half\n' });
    expect(await read('list.txt')).toBe('one\ntwo\ntwo and a half\nthree\n');
    expect(out).toContain('Inserted 1 line after line 2 of list.txt.');
    expect(out).toContain('     3\ttwo and a half');
  });

  it('inserts at the top with 0 and at the end with the line count', async () => {
    await ok({ command: 'insert', path: 'list.txt', insert_line: 0, insert_text: 'zero' });
    await ok({ command: 'insert', path: 'list.txt', insert_line: 4, insert_text: 'four\nfive' });
    expect(await read('list.txt')).toBe('zero\none\ntwo\nthree\nfour\nfive\n');
  });

  it('inserts into an empty file', async () => {
    await writeFile(file('empty.txt'), '');
    await ok({ command: 'insert', path: 'empty.txt', insert_line: 0, insert_text: 'first' });
    expect(await read('empty.txt')).toBe('first\n');
  });

  it('keeps CRLF line endings', async () => {
    await writeFile(file('win.txt'), 'a\r\nc\r\n');
    await ok({ command: 'insert', path: 'win.txt', insert_line: 1, insert_text: 'b\n' });
    expect(await read('win.txt')).toBe('a\r\nb\r\nc\r\n');
  });

  it('rejects an out-of-range line with the valid range', async () => {
    expect(await fails({ command: 'insert', path: 'list.txt', insert_line: 4, insert_text: 'x' })).toContain('between 0 and 3');
    expect(await fails({ command: 'insert', path: 'list.txt', insert_line: -1, insert_text: 'x' })).toContain('between 0 and 3');
    expect(await read('list.txt')).toBe('one\ntwo\nthree\n');
  });

  it('accepts new_str as the older name of insert_text', async () => {
    await ok({ command: 'insert', path: 'list.txt', insert_line: 3, new_str: 'four' });
    expect(await read('list.txt')).toBe('one\ntwo\nthree\nfour\n');
  });

  it('requires insert_text', async () => {
    expect(await fails({ command: 'insert', path: 'list.txt', insert_line: 1 })).toContain('`insert_text` is missing');
  });
});

describe('malformed input', () => {
  it.each([
    [null, 'expected a JSON object, got null'],
    ['view', 'expected a JSON object, got the string "view"'],
    [42, 'expected a JSON object, got the number 42'],
    [[], 'expected a JSON object, got an array'],
    [{}, '`command` must be one of "view", "create", "str_replace", "insert", got nothing'],
    [{ command: 'delete', path: 'x' }, '`command` must be one of "view", "create", "str_replace", "insert", got the string "delete"'],
    [{ command: 'undo_edit', path: 'x' }, 'undo_edit does not exist in this version'],
    [{ command: 'view' }, '`path` is missing (expected a string)'],
    [{ command: 'view', path: 7 }, '`path` must be a string, got the number 7'],
    [{ command: 'create', path: 'x.txt' }, '`file_text` is missing (expected a string)'],
    [{ command: 'create', path: 'x.txt', file_text: 12 }, '`file_text` must be a string, got the number 12'],
    [{ command: 'str_replace', path: 'x.txt', new_str: 'b' }, '`old_str` is missing (expected a string)'],
    [{ command: 'insert', path: 'x.txt', insert_line: '2', insert_text: 'a' }, '`insert_line` must be a number, got the string "2"'],
    [{ command: 'insert', path: 'x.txt', insert_line: 1.5, insert_text: 'a' }, '`insert_line` must be an integer, got the number 1.5'],
    [{ command: 'view', path: 'x.txt', view_range: [1, 'end'] }, '`view_range[1]` must be a number, got the string "end"'],
    [{ command: 'view', path: 'x.txt', view_range: [1] }, '`view_range`'],
    [{ command: 'view', path: '' }, 'Invalid path ""'],
  ])('%j → %s', async (input, expected) => {
    const out = await runEditTool(root, input);
    expect(out.isError).toBe(true);
    expect(out.content).toContain(expected);
  });

  it('never creates anything for malformed input', async () => {
    await runEditTool(root, { command: 'create', path: 'x.txt', file_text: 12 });
    await expect(readFile(file('x.txt'))).rejects.toThrow();
  });
});

describe('paths the sandbox protects', () => {
  it('refuses to create or edit every path the sandbox keeps read-only (.lfsconfig, .gitmodules, shell start-up files, .vscode, .claude/commands…), in any case', async () => {
    await writeFile(file('.lfsconfig'), '[lfs]\n');
    for (const p of [
      '.lfsconfig',
      '.LFSConfig',
      '.gitmodules',
      '.bashrc',
      '.mcp.json',
      '.vscode/settings.json',
      '.claude/commands/x.md',
      './.Idea/workspace.xml',
      'src/../.lfsconfig',
    ]) {
      expect(await fails({ command: 'create', path: p, file_text: '[lfs]\n\turl = http://127.0.0.1:9/\n' })).toMatch(/is protected/);
    }
    expect(await fails({ command: 'str_replace', path: '.lfsconfig', old_str: '[lfs]', new_str: '[lfs]\n\turl = http://127.0.0.1:9/' })).toMatch(
      /is protected/,
    );
    expect(await fails({ command: 'insert', path: '.lfsconfig', insert_line: 0, insert_text: '[lfs]' })).toMatch(/is protected/);
    expect(await read('.lfsconfig')).toBe('[lfs]\n');
    // Reading stays allowed; a name only protected at the top is not protected deeper (the sandbox's list is the worktree's root).
    await ok({ command: 'view', path: '.lfsconfig' });
    await ok({ command: 'create', path: 'docs/.bashrc', file_text: 'x\n' });
  });

  it('refuses one reached through a link to the worktree itself', async () => {
    await symlink('.', file('here'));
    expect(await fails({ command: 'create', path: 'here/.lfsconfig', file_text: 'x\n' })).toMatch(/is protected/);
  });
});
