// Finds where a failure's file:line is shown in an attempt: the diff's file of that name (the diff view finds the line), or a gate-output line.
import { stripAnsi } from './ansi';

/** True when two paths name the same file: one is a path suffix of the other (relative vs absolute in the worktree). */
export function samePath(a: string, b: string): boolean {
  const x = a.replace(/\\/g, '/').replace(/^\.\//, '');
  const y = b.replace(/\\/g, '/').replace(/^\.\//, '');
  if (x === y) return true;
  const [long, short] = x.length >= y.length ? [x, y] : [y, x];
  return short !== '' && long.endsWith(`/${short}`);
}

/** The path, as the diff names it, of the diff's file that a failure's path names (relative or absolute), or null. */
export function diffFileNamed(paths: readonly string[], file: string): string | null {
  return paths.find((p) => samePath(p, file)) ?? null;
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
