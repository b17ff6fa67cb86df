// The one reader of git's unified diff: files, hunks and numbered lines (what a review comment points at, the hunk it is
// shown with, where a line went in a later diff), each raw line's kind for a plain coloured view, and the counts.
// Pure and linear in the diff's size; no Node, no DOM (the engine and the app read it).

export type DiffLineKind = 'context' | 'add' | 'del';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  /** The line's number in the old file (context and deleted lines). */
  oldLine: number | null;
  /** The line's number in the new file (context and added lines). */
  newLine: number | null;
}

export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** The `@@ … @@` line as git wrote it (with the function context after it). */
  header: string;
  lines: DiffLine[];
}

export interface DiffFile {
  oldPath: string | null;
  newPath: string | null;
  status: 'added' | 'deleted' | 'modified' | 'renamed';
  binary: boolean;
  hunks: DiffHunk[];
}

/** What each line of `git diff`'s text is, as a plain view colours it. */
export type DiffTextKind = 'file' | 'meta' | 'hunk' | 'add' | 'del' | 'context';

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** git's quoted path (`"a/sp ace\tx"`) or a plain one, without its `a/` or `b/`. */
function unquote(p: string): string {
  if (!p.startsWith('"')) return p;
  return p.slice(1, -1).replace(/\\(["\\tn])/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c));
}

function side(p: string): string | null {
  const path = unquote(p.trim());
  if (path === '/dev/null') return null;
  return path.replace(/^[ab]\//, '');
}

/** Parses `git diff` output (no colour). Lines it does not know are skipped; a truncated diff gives what it holds. */
export function parseUnifiedDiff(text: string): DiffFile[] {
  return readUnifiedDiff(text).files;
}

/**
 * The diff's files, and each raw line's kind (`kinds[i]` is line i of `text.split('\n')`). A line inside a hunk is
 * what its first character says even when it looks like a header (`--- x` is a deleted `-- x`): the hunk's counts say
 * where it ends.
 */
export function readUnifiedDiff(text: string): { files: DiffFile[]; kinds: DiffTextKind[] } {
  const kinds: DiffTextKind[] = [];
  const files: DiffFile[] = [];
  let file: DiffFile | null = null;
  let hunk: DiffHunk | null = null;
  let oldNo = 0;
  let newNo = 0;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // A hunk whose counts are met ends (a `\ No newline` note still belongs to it).
    if (hunk && oldNo >= hunk.oldStart + hunk.oldLines && newNo >= hunk.newStart + hunk.newLines && line[0] !== '\\') hunk = null;
    if (line.startsWith('diff --git ')) {
      kinds.push('file');
      const m = /^diff --git (?:"?a\/)(.+?)"? (?:"?b\/)(.+?)"?$/.exec(line);
      file = { oldPath: m ? m[1]! : null, newPath: m ? m[2]! : null, status: 'modified', binary: false, hunks: [] };
      files.push(file);
      hunk = null;
      continue;
    }
    if (hunk) {
      const c = line[0];
      if (c === ' ' || (line === '' && oldNo < hunk.oldStart + hunk.oldLines)) {
        kinds.push('context');
        hunk.lines.push({ kind: 'context', text: line.slice(1), oldLine: oldNo++, newLine: newNo++ });
        continue;
      }
      if (c === '+') {
        kinds.push('add');
        hunk.lines.push({ kind: 'add', text: line.slice(1), oldLine: null, newLine: newNo++ });
        continue;
      }
      if (c === '-') {
        kinds.push('del');
        hunk.lines.push({ kind: 'del', text: line.slice(1), oldLine: oldNo++, newLine: null });
        continue;
      }
      if (c === '\\') {
        kinds.push('meta');
        continue;
      }
      hunk = null;
    }
    const h = HUNK.exec(line);
    kinds.push(h ? 'hunk' : file ? 'meta' : 'context');
    if (h) {
      hunk = {
        oldStart: Number(h[1]),
        oldLines: h[2] === undefined ? 1 : Number(h[2]),
        newStart: Number(h[3]),
        newLines: h[4] === undefined ? 1 : Number(h[4]),
        header: line,
        lines: [],
      };
      oldNo = hunk.oldStart;
      newNo = hunk.newStart;
      file?.hunks.push(hunk);
      continue;
    }
    if (!file) continue;
    if (line.startsWith('new file mode')) file.status = 'added';
    else if (line.startsWith('deleted file mode')) file.status = 'deleted';
    else if (line.startsWith('rename from ')) {
      file.status = 'renamed';
      file.oldPath = unquote(line.slice('rename from '.length));
    } else if (line.startsWith('rename to ')) file.newPath = unquote(line.slice('rename to '.length));
    else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true;
    else if (line.startsWith('--- ')) file.oldPath = side(line.slice(4));
    else if (line.startsWith('+++ ')) file.newPath = side(line.slice(4));
  }
  for (const f of files) {
    if (f.status === 'added') f.oldPath = null;
    if (f.status === 'deleted') f.newPath = null;
  }
  return { files, kinds };
}

/** Files changed and lines added and removed. */
export function diffStats(files: readonly DiffFile[]): { files: number; added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const f of files)
    for (const h of f.hunks)
      for (const l of h.lines) {
        if (l.kind === 'add') added++;
        else if (l.kind === 'del') removed++;
      }
  return { files: files.length, added, removed };
}

/** The file of a diff a path names (its new path, or its old one when deleted). */
export function diffFileFor(files: readonly DiffFile[], path: string): DiffFile | undefined {
  return files.find((f) => f.newPath === path) ?? files.find((f) => f.newPath === null && f.oldPath === path);
}

/** The hunk that shows new-file line `line` of `file`, if the diff shows it. */
export function hunkAt(file: DiffFile, line: number): DiffHunk | undefined {
  return file.hunks.find((h) => line >= h.newStart && line < h.newStart + Math.max(h.newLines, 1));
}

/** The hunk as git wrote it (header and lines), for a prompt or a thread. */
export function hunkText(h: DiffHunk): string {
  const mark: Record<DiffLineKind, string> = { context: ' ', add: '+', del: '-' };
  return [h.header, ...h.lines.map((l) => `${mark[l.kind]}${l.text}`)].join('\n');
}

/**
 * Where old-file line `line` is in the new file, after the change `file` describes: its new number when the line is
 * unchanged (shifted by the hunks before it), null when a hunk removed or rewrote it.
 */
export function mapOldLine(file: DiffFile | undefined, line: number): number | null {
  if (!file) return line;
  let shift = 0;
  for (const h of file.hunks) {
    // A hunk of no old (new) lines names the line before it: its range starts one further.
    const oldFrom = h.oldLines === 0 ? h.oldStart + 1 : h.oldStart;
    const newFrom = h.newLines === 0 ? h.newStart + 1 : h.newStart;
    if (line < oldFrom) break;
    const inside = h.lines.find((l) => l.oldLine === line);
    if (inside) return inside.kind === 'context' ? inside.newLine : null;
    if (line >= oldFrom + h.oldLines) shift = newFrom + h.newLines - (oldFrom + h.oldLines);
  }
  return line + shift;
}
