// Lines of a long text by index, without splitting it: gate logs are paged by line (engine) and drawn by line (renderer).
import type { GateLogPage } from './contract';

/** Line starts, not substrings: a 20 MB output keeps one string and an index instead of 300 000 copies. */
export function lineIndex(text: string): Uint32Array {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Uint32Array(count);
  let k = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts[k++] = i + 1;
  return starts;
}

/** Line `i` without its line break (a trailing \r too). */
export function lineAt(text: string, starts: Uint32Array, i: number): string {
  const start = starts[i] ?? 0;
  const next = starts[i + 1];
  const end = next === undefined ? text.length : next - 1;
  const line = text.slice(start, end);
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** How many lines a viewer shows for `text` (an empty text has none; a trailing line break ends with an empty line). */
export function lineCount(text: string, starts: Uint32Array): number {
  return text === '' ? 0 : starts.length;
}

/** The first `n` lines of `text`, with their line breaks (the text itself when it has no more). */
export function headLines(text: string, starts: Uint32Array, n: number): string {
  const next = starts[n];
  return next === undefined ? text : text.slice(0, next - 1);
}

export interface IndexedLog {
  text: string;
  starts: Uint32Array;
  total: number;
}

export function indexLog(text: string): IndexedLog {
  const starts = lineIndex(text);
  return { text, starts, total: lineCount(text, starts) };
}

/** Lines [from, from + count) of a log, clipped to its end. */
export function logPage(log: IndexedLog, from: number, count: number): GateLogPage {
  const end = Math.min(log.total, from + count);
  const lines: string[] = [];
  for (let i = from; i < end; i++) lines.push(lineAt(log.text, log.starts, i));
  return { from, lines, total: log.total };
}

/** A gate's output for runs.attempt: whole when it has at most `headLines` lines, else its head with the line count. */
export function headOf<G extends { output: string }>(gate: G, maxLines: number | undefined, log?: IndexedLog): G & { lineCount?: number; partial?: boolean } {
  if (maxLines === undefined) return gate;
  const l = log ?? indexLog(gate.output);
  if (l.total <= maxLines) return { ...gate, lineCount: l.total, partial: false };
  return { ...gate, output: headLines(l.text, l.starts, maxLines), lineCount: l.total, partial: true };
}

/** Reads the note a kept gate log puts where lines were left out ("[… lines 19–7,320 elided (112 KB) …]"): their original numbers. */
export function readGapNote(line: string): { first: number; last: number } | null {
  const m = /^\[… lines? ([\d,]+)(?:–([\d,]+))? elided \([^)]*\) …\]$/.exec(line);
  if (!m) return null;
  const first = Number(m[1]!.replace(/,/g, ''));
  return { first, last: m[2] ? Number(m[2].replace(/,/g, '')) : first };
}

/**
 * The original line number of each kept line of a gate log (0 for a gap note), and how many lines the original had;
 * null when nothing was left out (then line i is line i + 1).
 */
export function originalLines(text: string, starts: Uint32Array): { numbers: Uint32Array; total: number } | null {
  if (!text.includes(' elided (')) return null;
  const numbers = new Uint32Array(starts.length);
  let next = 1;
  let gaps = 0;
  for (let i = 0; i < starts.length; i++) {
    const line = lineAt(text, starts, i);
    const gap = line.startsWith('[… line') ? readGapNote(line) : null;
    if (gap) {
      gaps++;
      next = gap.last + 1;
      continue;
    }
    numbers[i] = next++;
  }
  if (gaps === 0) return null;
  // A trailing newline ends the text with an empty line that is not one of the original's.
  const total = text.endsWith('\n') ? next - 2 : next - 1;
  return { numbers, total };
}
