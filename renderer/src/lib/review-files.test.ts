// The diff's unchanged lines: where they are between and around hunks, and the rows once some are opened.
import { describe, expect, it } from 'vitest';
import { diffFiles, fileGaps, fileRows, openLines, reviewRows, type Row } from './review-files';

// A 30-line file: line 5 changed, line 20 removed and two added after it; git's 3 lines of context around each.
const DIFF = [
  'diff --git a/f.ts b/f.ts',
  '--- a/f.ts',
  '+++ b/f.ts',
  '@@ -2,7 +2,7 @@',
  ' l2',
  ' l3',
  ' l4',
  '-l5',
  '+L5',
  ' l6',
  ' l7',
  ' l8',
  '@@ -17,7 +17,8 @@',
  ' l17',
  ' l18',
  ' l19',
  '-l20',
  '+L20a',
  '+L20b',
  ' l21',
  ' l22',
  ' l23',
  '',
].join('\n');
const file = diffFiles(DIFF)[0]!.file;
const show = (rows: Row[]) =>
  rows.map((r) =>
    r.kind === 'expand' ? `expand ${r.from}-${r.to ?? 'end'}` : r.kind === 'line' ? `${r.line.oldLine ?? '_'}/${r.line.newLine ?? '_'} ${r.line.text}` : r.kind,
  );

describe('unchanged lines of a diff', () => {
  it('finds them before the first hunk, between hunks and after the last, numbered on both sides', () => {
    expect(fileGaps(file)).toEqual([
      { at: 0, from: 1, to: 1, shift: 0 },
      { at: 1, from: 9, to: 16, shift: 0 },
      { at: 2, from: 25, to: null, shift: 1 },
    ]);
    // Once the file's length is known the last gap ends there, or is none when the last hunk reached it.
    expect(fileGaps(file, 31).at(-1)).toEqual({ at: 2, from: 25, to: 31, shift: 1 });
    expect(fileGaps(file, 24).map((g) => g.at)).toEqual([0, 1]);
    // A hunk ending in fewer than 3 unchanged lines ended at the file's end; an added file has no unchanged lines.
    expect(fileGaps(diffFiles('diff --git a/g b/g\n--- a/g\n+++ b/g\n@@ -4,3 +4,3 @@\n x\n-y\n+Y\n')[0]!.file).map((g) => g.at)).toEqual([0]);
    expect(fileGaps(diffFiles('diff --git a/n b/n\nnew file mode 100644\n--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+n\n')[0]!.file)).toEqual([]);
  });

  it('draws a row to open each gap, and the opened lines as context in their place (the old side numbered too)', () => {
    expect(show(fileRows(file, false))).not.toContain('expand 1-1');
    const closed = show(fileRows(file, false, null));
    expect(closed.filter((r) => r.startsWith('expand'))).toEqual(['expand 1-1', 'expand 9-16', 'expand 25-end']);
    const opened = openLines(openLines(undefined, 9, ['l9', 'l10', 'l11'], 30), 25, ['l24', 'l25'], 30);
    const rows = show(fileRows(file, false, opened));
    const i = rows.indexOf('8/8 l8');
    expect(rows.slice(i, i + 6)).toEqual(['8/8 l8', '9/9 l9', '10/10 l10', '11/11 l11', 'expand 12-16', 'hunk']);
    // After the last hunk new line 25 is old line 24; the file's known end leaves lines 27-30 to open.
    expect(rows.slice(-3)).toEqual(['24/25 l24', '25/26 l25', 'expand 27-30']);
    // Split: an opened line stands on both sides.
    const pair = fileRows(file, true, opened).find((r) => r.kind === 'pair' && r.left?.text === 'l10');
    expect(pair).toMatchObject({ left: { oldLine: 10, newLine: 10 }, right: { oldLine: 10, newLine: 10 } });
    // Every line open: no row to open is left.
    const all = openLines(openLines(openLines(opened, 1, ['l1'], 30), 12, ['l12', 'l13', 'l14', 'l15', 'l16'], 30), 27, ['a', 'b', 'c', 'd'], 30);
    expect(show(fileRows(file, false, all)).filter((r) => r.startsWith('expand'))).toEqual([]);
  });

  it('keeps a thread on unchanged lines that are not shown under the row that opens them', () => {
    const threads = new Map([['f.ts:12', { file: 'f.ts', line: 12, comments: ['on line 12'] }]]);
    const rows = reviewRows(diffFiles(DIFF), { split: false, threads, context: new Map() });
    const i = rows.findIndex((r) => r.kind === 'expand' && r.from === 9);
    expect(rows[i + 1]).toMatchObject({ kind: 'thread', thread: { line: 12 } });
    // Opened, it hangs under its own line.
    const opened = reviewRows(diffFiles(DIFF), {
      split: false,
      threads,
      context: new Map([['f.ts', openLines(undefined, 9, ['l9', 'l10', 'l11', 'l12'], 30)]]),
    });
    const at = opened.findIndex((r) => r.kind === 'line' && r.line.newLine === 12);
    expect(opened[at + 1]).toMatchObject({ kind: 'thread' });
    expect(opened.filter((r) => r.kind === 'thread').length).toBe(1);
  });

  it('merges opened runs that touch or overlap', () => {
    expect(openLines(openLines(undefined, 3, ['c', 'd'], 9), 1, ['a', 'b', 'c'], 9)).toEqual({ ranges: [{ from: 1, lines: ['a', 'b', 'c', 'd'] }], total: 9 });
    expect(openLines(openLines(undefined, 7, ['g'], 9), 1, ['a'], 9).ranges.map((r) => r.from)).toEqual([1, 7]);
  });
});
