// Classifies unified-diff lines (file headers, hunks, additions, deletions) for the coloured diff view.

export type DiffLineKind = 'file' | 'meta' | 'hunk' | 'add' | 'del' | 'context';

export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith('diff --git')) return 'file';
  if (
    line.startsWith('+++') ||
    line.startsWith('---') ||
    line.startsWith('index ') ||
    line.startsWith('new file') ||
    line.startsWith('deleted file') ||
    line.startsWith('similarity') ||
    line.startsWith('rename ')
  )
    return 'meta';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'context';
}

export function diffStats(diff: string): { files: number; added: number; removed: number } {
  let files = 0;
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    const k = diffLineKind(line);
    if (k === 'file') files++;
    else if (k === 'add') added++;
    else if (k === 'del') removed++;
  }
  return { files, added, removed };
}
