// A text's lines as the editor shows them: `cat -n` numbering, CRLF detection, fitting a character budget, line of an offset.

/** Lines as `cat -n` sees them: a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

export function numbered(lines: readonly string[], firstLineNumber: number): string[] {
  return lines.map((line, i) => `${String(firstLineNumber + i).padStart(6)}\t${line.replace(/\r$/, '')}`);
}

/** Whether every newline is CRLF; mixed files are edited byte for byte rather than normalised. */
export function usesCrlf(text: string): boolean {
  return text.includes('\r\n') && !/(^|[^\r])\n/.test(text);
}

/** Keeps whole lines while they fit in `budget` characters; returns how many lines were kept. */
export function fitLines(lines: readonly string[], budget: number): { text: string; kept: number } {
  let used = 0;
  let kept = 0;
  for (const line of lines) {
    const cost = line.length + (kept > 0 ? 1 : 0);
    if (used + cost > budget) break;
    used += cost;
    kept += 1;
  }
  if (kept === 0 && lines.length > 0) {
    // A single line longer than the budget: show its start rather than nothing at all.
    return { text: (lines[0] ?? '').slice(0, Math.max(0, budget)), kept: 0 };
  }
  return { text: lines.slice(0, kept).join('\n'), kept };
}

export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

export function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}
