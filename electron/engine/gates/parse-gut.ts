// Failing tests from GUT's (Godot Unit Test) text output.
import { MAX_FAILED_TESTS, stripAnsi, extractExpectedActual, MAX_MESSAGE_CHARS, clip, type FailedTest } from './failure-text';

interface GutEntry {
  name: string;
  file: string | null;
  texts: string[];
  line: number | null;
}

/**
 * Failing tests of GUT (Godot Unit Test) console output: "res://test/x.gd" script headers, "* test_name" (while
 * running) or "- test_name" (in the Run Summary) and "[Failed]:  text" / "at line N" under them. The Run Summary is
 * read when present: it lists every failure once, even when the run's own lines were cut from the middle.
 */
export function parseGut(output: string): FailedTest[] {
  const text = stripAnsi(output).replace(/\r\n?/g, '\n');
  if (!/^[ \t]*\[Failed\]:/m.test(text)) return [];
  const summaryAt = text.search(/^= Run Summary\s*$/m);
  const fromSummary = summaryAt >= 0 ? readGut(text.slice(summaryAt)) : [];
  return (fromSummary.length > 0 ? fromSummary : readGut(text)).slice(0, MAX_FAILED_TESTS);
}

function readGut(text: string): FailedTest[] {
  const entries: GutEntry[] = [];
  let script: string | null = null;
  let inner: string | null = null;
  let test: string | null = null;
  let open: GutEntry | null = null; // the entry whose last [Failed] text may continue on the next lines
  let continued = 0;
  for (const line of text.split('\n')) {
    let m = line.match(/^\s*(?:Running Script )?res:\/\/(\S+?\.gd)(?:\.([A-Za-z_]\w*))?\s*$/);
    if (m) {
      [script, inner, test, open] = [m[1]!, m[2] ?? null, null, null];
      continue;
    }
    m = line.match(/^\s*[*-] ([A-Za-z_]\w*)\s*$/);
    if (m) {
      [test, open] = [m[1]!, null];
      continue;
    }
    m = line.match(/^\s*\[Failed\]:\s*(.*?)\s*$/);
    if (m) {
      const name = [script, inner, test].filter(Boolean).join(' > ') || '(unnamed test)';
      let entry = entries.find((e) => e.name === name);
      if (!entry) {
        entry = { name, file: script, texts: [], line: null };
        entries.push(entry);
      }
      entry.texts.push(m[1]!);
      [open, continued] = [entry, 0];
      continue;
    }
    m = line.match(/^\s*at line (\d+)\s*$/);
    if (m) {
      if (open && open.line === null) open.line = Number(m[1]);
      open = null;
      continue;
    }
    if (open && /^\s+\S/.test(line) && !/^\s*\[(?:Passed|Pending|Risky|ERROR|WARNING|INFO|DEBUG|Orphans)\]/.test(line) && continued < 20) {
      open.texts[open.texts.length - 1] += `\n${line.trim()}`;
      continued += 1;
    } else {
      open = null;
    }
  }
  return entries.map((e) => {
    const all = e.texts.join('\n');
    const { expected, actual } = extractExpectedActual(all);
    return { name: e.name, message: all.trim() === '' ? null : clip(all, MAX_MESSAGE_CHARS), expected, actual, file: e.file, line: e.line };
  });
}
