// The unified-diff reader on git's own output (captured from git 2.x): a change, an addition, a deletion, a rename, a
// binary file; and where an old line lands in the new file.
import { describe, expect, it } from 'vitest';
import { diffFileFor, diffStats, hunkAt, hunkText, mapOldLine, parseUnifiedDiff, readUnifiedDiff } from './unified-diff';

const ctx = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ` l${from + i}`);

const FIVE_FILES = [
  'diff --git a/a.txt b/a.txt',
  'index 58b8997..e52ef2b 100644',
  '--- a/a.txt',
  '+++ b/a.txt',
  '@@ -1,6 +1,6 @@',
  ...ctx(1, 2),
  '-l3',
  '+L3',
  ...ctx(4, 6),
  '@@ -18,6 +18,8 @@ l17',
  ...ctx(18, 20),
  '+new1',
  '+new2',
  ...ctx(21, 23),
  'diff --git a/added.txt b/added.txt',
  'new file mode 100644',
  'index 0000000..ce01362',
  '--- /dev/null',
  '+++ b/added.txt',
  '@@ -0,0 +1 @@',
  '+hello',
  'diff --git a/bin.dat b/bin.dat',
  'index 2e65efe..5086790 100644',
  'Binary files a/bin.dat and b/bin.dat differ',
  'diff --git a/gone.txt b/gone.txt',
  'deleted file mode 100644',
  'index 587be6b..0000000',
  '--- a/gone.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-x',
  'diff --git a/old.txt b/moved.txt',
  'similarity index 100%',
  'rename from old.txt',
  'rename to moved.txt',
  '',
].join('\n');

describe('parseUnifiedDiff', () => {
  it("reads git's files and hunks with the numbers of each line on both sides", () => {
    const files = parseUnifiedDiff(FIVE_FILES);
    expect(files.map((f) => [f.status, f.oldPath, f.newPath, f.binary])).toEqual([
      ['modified', 'a.txt', 'a.txt', false],
      ['added', null, 'added.txt', false],
      ['modified', 'bin.dat', 'bin.dat', true],
      ['deleted', 'gone.txt', null, false],
      ['renamed', 'old.txt', 'moved.txt', false],
    ]);
    const a = diffFileFor(files, 'a.txt')!;
    expect(a.hunks).toHaveLength(2);
    expect(a.hunks[0]!.lines.find((l) => l.kind === 'add')).toEqual({ kind: 'add', text: 'L3', oldLine: null, newLine: 3 });
    expect(a.hunks[0]!.lines.find((l) => l.kind === 'del')).toEqual({ kind: 'del', text: 'l3', oldLine: 3, newLine: null });
    expect(hunkAt(a, 21)).toBe(a.hunks[1]);
    expect(hunkAt(a, 12)).toBeUndefined();
    expect(hunkText(a.hunks[1]!)).toBe(['@@ -18,6 +18,8 @@ l17', ...ctx(18, 20), '+new1', '+new2', ...ctx(21, 23)].join('\n'));
    expect(diffFileFor(files, 'gone.txt')?.status).toBe('deleted');
    expect(diffFileFor(files, 'added.txt')?.hunks[0]?.lines).toEqual([{ kind: 'add', text: 'hello', oldLine: null, newLine: 1 }]);
  });

  it('maps an old line to its new number: shifted by hunks before it, null when rewritten or removed', () => {
    const diff = [
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -3,6 +3,7 @@ l2',
      ...ctx(3, 5),
      '+ins',
      ...ctx(6, 8),
      '@@ -17,7 +18,7 @@ l16',
      ...ctx(17, 19),
      '-l20',
      '+L20',
      ...ctx(21, 23),
      '@@ -27,8 +28,6 @@ l26',
      ...ctx(27, 29),
      '-l30',
      '-l31',
      ...ctx(32, 34),
    ];
    const f = parseUnifiedDiff(['diff --git a/a.txt b/a.txt', ...diff].join('\n'))[0]!;
    expect([1, 5, 6, 19, 20, 25, 30, 31, 32, 40].map((n) => mapOldLine(f, n))).toEqual([1, 5, 7, 20, null, 26, null, null, 31, 39]);
    expect(mapOldLine(undefined, 7)).toBe(7);
  });

  it('maps through hunks without context (git diff -U0), where a hunk of no lines names the line before it', () => {
    const f = parseUnifiedDiff(
      ['diff --git a/a.txt b/a.txt', '--- a/a.txt', '+++ b/a.txt', '@@ -3,0 +4,2 @@ l3', '+x', '+y', '@@ -8 +9,0 @@ l7', '-l8', ''].join('\n'),
    )[0]!;
    expect([3, 4, 7, 8, 9, 10].map((n) => mapOldLine(f, n))).toEqual([3, 6, 9, null, 10, 11]);
  });
});

describe('one reader for every view', () => {
  // A deleted SQL comment (`-- note`) is the raw line `--- note`; the app's second classifier took it for a file header
  // and counted neither it nor its `+++` replacement.
  const SQL = [
    'diff --git a/q.sql b/q.sql',
    'index 1..2 100644',
    '--- a/q.sql',
    '+++ b/q.sql',
    '@@ -1,2 +1,2 @@',
    '--- the old note',
    '+++ the new note',
    ' select 1;',
    '',
  ].join('\n');

  it('reads a line inside a hunk by its first character even when it looks like a file header, and ends the hunk by its counts', () => {
    const { files, kinds } = readUnifiedDiff(SQL);
    expect(kinds).toEqual(['file', 'meta', 'meta', 'meta', 'hunk', 'del', 'add', 'context', 'meta']);
    expect(files[0]!.hunks[0]!.lines.map((l) => `${l.kind}:${l.text}`)).toEqual(['del:-- the old note', 'add:++ the new note', 'context:select 1;']);
    expect(diffStats(files)).toEqual({ files: 1, added: 1, removed: 1 });
  });

  it('classifies each raw line of a multi-file diff for the plain view, and counts what the review counts', () => {
    const { files, kinds } = readUnifiedDiff(FIVE_FILES);
    const lines = FIVE_FILES.split('\n');
    expect(kinds.length).toBe(lines.length);
    expect(kinds.filter((k) => k === 'file').length).toBe(files.length);
    lines.forEach((l, i) => {
      if (kinds[i] === 'add') expect(l.startsWith('+')).toBe(true);
      if (kinds[i] === 'del') expect(l.startsWith('-')).toBe(true);
    });
    expect(diffStats(files)).toEqual({ files: 5, added: kinds.filter((k) => k === 'add').length, removed: kinds.filter((k) => k === 'del').length });
  });
});
