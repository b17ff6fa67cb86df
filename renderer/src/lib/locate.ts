// Finds where a failure's file:line is shown in an attempt: the diff line with that new-line number, or a gate-output line.
import { stripAnsi } from './ansi';

/** True when two paths name the same file: one is a path suffix of the other (relative vs absolute in the worktree). */
export function samePath(a: string, b: string): boolean {
  const x = a.replace(/\\/g, '/').replace(/^\.\//, '');
  const y = b.replace(/\\/g, '/').replace(/^\.\//, '');
  if (x === y) return true;
  const [long, short] = x.length >= y.length ? [x, y] : [y, x];
  return short !== '' && long.endsWith(`/${short}`);
}

/** The index of the diff line for `file` at new-line `line` (the file header when the line is in no hunk), or null. */
export function diffLineFor(lines: string[], file: string, line: number | null): number | null {
  let header: number | null = null;
  let inFile = false;
  let next = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (l.startsWith('diff --git ')) {
      if (inFile) return header;
      const m = /^diff --git a\/(.+) b\/(.+)$/.exec(l);
      inFile = m !== null && samePath(m[2]!, file);
      if (inFile) header = i;
      continue;
    }
    if (!inFile) continue;
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (hunk) {
      next = Number(hunk[1]);
      continue;
    }
    if (next === 0 || l.startsWith('\\')) continue;
    if (l.startsWith('-')) continue;
    if (line !== null && next === line) return i;
    next++;
  }
  return header;
}

/** The first output line that mentions `file:line` (or tsc's `file(line,col)`), else the first that mentions the file's name, or null. */
export function outputLineFor(output: string, file: string, line: number | null): number | null {
  const lines = stripAnsi(output).split('\n');
  const base = file.replace(/\\/g, '/').split('/').pop() ?? file;
  const exact = line === null ? null : new RegExp(`${escape(base)}(?::${line}(?!\\d)|\\(${line}[,)])`);
  if (exact) {
    const i = lines.findIndex((l) => exact.test(l));
    if (i >= 0) return i;
  }
  const i = lines.findIndex((l) => l.includes(base));
  return i >= 0 ? i : null;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
