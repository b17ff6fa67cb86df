// Pure view helpers of the review: the diff's files with their counts, filtered by name, and a file's rows (hunk
// headers and lines) as the diff view draws them, unified or side by side.
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
