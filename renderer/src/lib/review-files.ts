// Pure view helpers of the review: the diff's files with their counts, filtered by name, and the rows the diff view
// draws for the whole change (file headers, hunk headers, lines unified or side by side, comment threads under their
// lines, the comment being written), with files git shows specially (binary, renamed, deleted, very large) as it does.
import { parseUnifiedDiff, type DiffFile, type DiffLine } from '../../../shared/unified-diff';

export interface FileEntry {
  path: string;
  file: DiffFile;
  added: number;
  removed: number;
}

/** The diff's files with their added and removed line counts, in git's order. */
export function diffFiles(diff: string): FileEntry[] {
  return parseUnifiedDiff(diff).map((file) => {
    let added = 0;
    let removed = 0;
    for (const h of file.hunks)
      for (const l of h.lines) {
        if (l.kind === 'add') added++;
        else if (l.kind === 'del') removed++;
      }
    return { path: file.newPath ?? file.oldPath ?? '?', file, added, removed };
  });
}

/** Files whose path holds the filter's text (case-insensitive); all for an empty filter. */
export function filterFiles(files: readonly FileEntry[], filter: string): FileEntry[] {
  const f = filter.trim().toLowerCase();
  return f ? files.filter((x) => x.path.toLowerCase().includes(f)) : [...files];
}

export type Row =
  | { kind: 'hunk'; text: string }
  | { kind: 'line'; line: DiffLine }
  | { kind: 'pair'; left: DiffLine | null; right: DiffLine | null }
  | { kind: 'expand'; from: number; to: number | null };

/** A file's unchanged lines opened on demand (new-side numbers): runs of lines from `from`, and the file's line count once known. */
export interface OpenedLines {
  ranges: ReadonlyArray<{ from: number; lines: readonly string[] }>;
  total: number | null;
}

/** git's default context: a hunk ends with this many unchanged lines unless the file ends first. */
const GIT_CONTEXT = 3;

/** Unchanged lines not shown, before hunk `at` (after the last one when `at` is the number of hunks). */
export interface Gap {
  at: number;
  from: number;
  to: number | null;
  shift: number;
}

/**
 * The unchanged lines a file's diff does not show (new-side numbers, `to` inclusive; null: up to the file's end, not
 * yet known), before each hunk and after the last, each with `shift` (new number − old number) to number the old side.
 * A last hunk ending in fewer than git's 3 unchanged lines reached the file's end: nothing is after it.
 */
export function fileGaps(file: DiffFile, total: number | null = null): Gap[] {
  if (file.binary || file.status === 'added' || file.status === 'deleted' || file.hunks.length === 0) return [];
  const gaps: Gap[] = [];
  let next = 1;
  let shift = 0;
  for (const [at, h] of file.hunks.entries()) {
    // A hunk of no old (new) lines names the line before it: its range starts one further (as mapOldLine reads it).
    const oldFrom = h.oldLines === 0 ? h.oldStart + 1 : h.oldStart;
    const newFrom = h.newLines === 0 ? h.newStart + 1 : h.newStart;
    shift = newFrom - oldFrom;
    if (newFrom > next) gaps.push({ at, from: next, to: newFrom - 1, shift });
    next = newFrom + h.newLines;
    shift = next - (oldFrom + h.oldLines);
  }
  const last = file.hunks.at(-1)!;
  let trailing = 0;
  for (let i = last.lines.length - 1; i >= 0 && last.lines[i]!.kind === 'context'; i--) trailing++;
  if (total !== null ? total >= next : trailing >= GIT_CONTEXT) gaps.push({ at: file.hunks.length, from: next, to: total, shift });
  return gaps;
}

/** A file's rows: unified (each line), or split (deletions beside the additions that replace them); `expand` rows stand for unchanged lines not shown (with `opened`, those opened are shown as context). */
export function fileRows(file: DiffFile, split: boolean, opened?: OpenedLines | null): Row[] {
  const rows: Row[] = [];
  const gaps = opened === undefined ? [] : fileGaps(file, opened?.total ?? null);
  const context = (text: string, newLine: number, shift: number): Row => {
    const line: DiffLine = { kind: 'context', text, oldLine: newLine - shift, newLine };
    return split ? { kind: 'pair', left: line, right: line } : { kind: 'line', line };
  };
  const gapRows = (g: Gap | undefined) => {
    if (!g) return;
    let at = g.from;
    const end = g.to ?? Infinity;
    for (const r of opened?.ranges ?? []) {
      const a = Math.max(r.from, at);
      const b = Math.min(r.from + r.lines.length - 1, end);
      if (b < a) continue;
      if (a > at) rows.push({ kind: 'expand', from: at, to: a - 1 });
      for (let n = a; n <= b; n++) rows.push(context(r.lines[n - r.from]!, n, g.shift));
      at = b + 1;
    }
    if (at <= end) rows.push({ kind: 'expand', from: at, to: g.to });
  };
  file.hunks.forEach((h, hi) => {
    gapRows(gaps.find((g) => g.at === hi));
    rows.push({ kind: 'hunk', text: h.header });
    if (!split) {
      for (const line of h.lines) rows.push({ kind: 'line', line });
      return;
    }
    let dels: DiffLine[] = [];
    let adds: DiffLine[] = [];
    const flush = () => {
      for (let i = 0; i < Math.max(dels.length, adds.length); i++) rows.push({ kind: 'pair', left: dels[i] ?? null, right: adds[i] ?? null });
      dels = [];
      adds = [];
    };
    for (const line of h.lines) {
      if (line.kind === 'del') dels.push(line);
      else if (line.kind === 'add') adds.push(line);
      else {
        flush();
        rows.push({ kind: 'pair', left: line, right: line });
      }
    }
    flush();
  });
  gapRows(gaps.find((g) => g.at === file.hunks.length));
  return rows;
}

/** `opened` with lines `from`.. added (its runs kept in order, overlapping ones merged) and the file's line count. */
export function openLines(opened: OpenedLines | undefined, from: number, lines: readonly string[], total: number): OpenedLines {
  const byLine = new Map<number, string>();
  for (const r of [...(opened?.ranges ?? []), { from, lines }]) r.lines.forEach((t, i) => byLine.set(r.from + i, t));
  const ranges: Array<{ from: number; lines: string[] }> = [];
  for (const n of [...byLine.keys()].sort((a, b) => a - b)) {
    const last = ranges.at(-1);
    if (last && last.from + last.lines.length === n) last.lines.push(byLine.get(n)!);
    else ranges.push({ from: n, lines: [byLine.get(n)!] });
  }
  return { ranges, total };
}

/** A file whose diff has more lines than this is shown folded, as code hosts fold a large diff, until opened. */
export const LARGE_FILE_LINES = 3000;

/** A comment thread's place: the file and the new-side line it hangs under (its last line). */
export interface Thread<C> {
  file: string;
  line: number;
  comments: C[];
}

export type ReviewRow<C> =
  | { kind: 'file'; fi: number }
  | { kind: 'note'; fi: number; text: string; open?: boolean }
  | { kind: 'hunk'; fi: number; text: string }
  | { kind: 'expand'; fi: number; from: number; to: number | null }
  | { kind: 'line'; fi: number; line: DiffLine }
  | { kind: 'pair'; fi: number; left: DiffLine | null; right: DiffLine | null }
  | { kind: 'thread'; fi: number; thread: Thread<C> }
  | { kind: 'draft'; fi: number };

/** The new-side line a row ends on (a split row's right side), if it has one. */
export function rowNewLine<C>(r: ReviewRow<C>): number | null {
  if (r.kind === 'line') return r.line.newLine;
  if (r.kind === 'pair') return r.right?.newLine ?? null;
  return null;
}

/** What git says of a file it shows no lines of, or null. */
function fileNote(e: FileEntry): string | null {
  if (e.file.binary) return e.file.status === 'added' ? 'Binary file added' : e.file.status === 'deleted' ? 'Binary file deleted' : 'Binary files differ';
  if (e.file.hunks.length === 0 && e.file.status === 'renamed') return 'File renamed without changes';
  if (e.file.hunks.length === 0) return e.file.status === 'added' ? 'Empty file added' : e.file.status === 'deleted' ? 'Empty file deleted' : 'Mode changed';
  return null;
}

/**
 * Every row of the whole change. `threads` are keyed `file:line` (new side); a thread hangs under the row that shows
 * its line. `draft` is the comment being written (under its last line); `opened` names the large files shown anyway;
 * `context` (when the view can read a file's lines) adds rows for the unchanged lines, opened or to open.
 */
export function reviewRows<C>(
  files: readonly FileEntry[],
  opts: {
    split: boolean;
    threads?: ReadonlyMap<string, Thread<C>>;
    draft?: { file: string; endLine: number } | null;
    opened?: ReadonlySet<string>;
    /** Files whose unchanged lines can be opened (a view that can read them), with those opened so far; absent: none can. */
    context?: ReadonlyMap<string, OpenedLines | null>;
  },
): ReviewRow<C>[] {
  const rows: ReviewRow<C>[] = [];
  files.forEach((e, fi) => {
    rows.push({ kind: 'file', fi });
    const note = fileNote(e);
    if (note) {
      rows.push({ kind: 'note', fi, text: note });
      return;
    }
    const size = e.added + e.removed;
    if (size > LARGE_FILE_LINES && !opts.opened?.has(e.path)) {
      rows.push({ kind: 'note', fi, text: `Large diff: ${size.toLocaleString('en')} changed lines are not shown.`, open: true });
      return;
    }
    for (const r of fileRows(e.file, opts.split, opts.context ? (opts.context.get(e.path) ?? null) : undefined)) {
      rows.push({ ...r, fi });
      if (r.kind === 'expand') {
        // A thread on unchanged lines not shown (opened before, closed again by a new diff) stays in sight under the row that opens them.
        for (const t of opts.threads?.values() ?? [])
          if (t.file === e.path && t.line >= r.from && t.line <= (r.to ?? Infinity)) rows.push({ kind: 'thread', fi, thread: t });
        continue;
      }
      const line = r.kind === 'line' ? r.line.newLine : r.kind === 'pair' ? (r.right?.newLine ?? null) : null;
      if (line === null || (r.kind === 'line' && r.line.kind === 'del')) continue;
      const thread = opts.threads?.get(`${e.path}:${line}`);
      if (thread) rows.push({ kind: 'thread', fi, thread });
      if (opts.draft && opts.draft.file === e.path && opts.draft.endLine === line) rows.push({ kind: 'draft', fi });
    }
  });
  return rows;
}

/** The index of the next (`dir` 1) or previous (-1) row of `kind` from `from`, or `from` when there is none. */
export function nextRow<C>(rows: readonly ReviewRow<C>[], from: number, dir: 1 | -1, kind: 'file' | 'hunk'): number {
  for (let i = from + dir; i >= 0 && i < rows.length; i += dir) if (rows[i]!.kind === kind) return i;
  return from;
}
