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

export type Row = { kind: 'hunk'; text: string } | { kind: 'line'; line: DiffLine } | { kind: 'pair'; left: DiffLine | null; right: DiffLine | null };

/** A file's rows: unified (each line), or split (deletions beside the additions that replace them). */
export function fileRows(file: DiffFile, split: boolean): Row[] {
  const rows: Row[] = [];
  for (const h of file.hunks) {
    rows.push({ kind: 'hunk', text: h.header });
    if (!split) {
      for (const line of h.lines) rows.push({ kind: 'line', line });
      continue;
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
  }
  return rows;
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
 * its line. `draft` is the comment being written (under its last line); `opened` names the large files shown anyway.
 */
export function reviewRows<C>(
  files: readonly FileEntry[],
  opts: { split: boolean; threads?: ReadonlyMap<string, Thread<C>>; draft?: { file: string; endLine: number } | null; opened?: ReadonlySet<string> },
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
    for (const r of fileRows(e.file, opts.split)) {
      rows.push(r.kind === 'hunk' ? { kind: 'hunk', fi, text: r.text } : r.kind === 'line' ? { kind: 'line', fi, line: r.line } : { ...r, fi });
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
