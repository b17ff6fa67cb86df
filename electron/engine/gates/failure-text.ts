// What every failing-test parser shares: the FailedTest shape, ANSI stripping, expected/actual and file:line extraction.

import { terminalText } from '../../../shared/terminal-text';

export type { FailedTest } from '../../../shared/domain';

export const MAX_FAILED_TESTS = 200;
// Long enough for a multi-line assertion message, short enough that 200 of them stay readable in a prompt.
export const MAX_MESSAGE_CHARS = 1000;
export const MAX_VALUE_CHARS = 500;

/**
 * Output as the text a person saw on the terminal: colours and cursor movement resolved, carriage-return redraws
 * applied, CRLF read as a newline (shared/terminal-text.ts, the one helper for this). Idempotent.
 */
export function stripAnsi(text: string): string {
  return terminalText(text);
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function cleanValue(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const v = raw.trim().replace(/,$/, '').trim();
  return v === '' ? null : clip(v, MAX_VALUE_CHARS);
}

/** Expected and actual values from the assertion messages of common test frameworks. */
export function extractExpectedActual(text: string): { expected: string | null; actual: string | null } {
  const t = stripAnsi(text);
  let m: RegExpMatchArray | null;

  // Jest: "Expected: 2" / "Received: 8" (also "Expected value:", "Received string:", …)
  const jestExpected = t.match(/^[ \t]*Expected(?: value| substring| pattern| length| path| constructor)?:\s+(.+)$/m);
  const jestReceived = t.match(/^[ \t]*Received(?: value| string| length| array| object| constructor| message)?:\s+(.+)$/m);
  if (jestExpected || jestReceived) return { expected: cleanValue(jestExpected?.[1]), actual: cleanValue(jestReceived?.[1]) };

  // GUT (Godot): "[0] expected to equal [100]:  message", "[0.5] expected to be > than [999.0]" (got first)
  // Bounded, and starting only after a space or "(call #2)", so a line of brackets cannot make this quadratic.
  m = t.match(/(?<![^\s:)])\[(.{0,500}?)\] expected to (?:equal|not equal|be [<>]=? than|be)\s*\[(.{0,500}?)\](?=:\s|\s*$|\s+\+\/-)/m);
  if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };

  // Chai / Vitest: "expected [ 1, 2, 3 ] to have a length of 2 but got 3"
  m = t.match(/\bto have a length (?:of|at least|at most|above|below) (\S+) but got (\S+)/);
  if (m) return { expected: cleanValue(m[1]), actual: cleanValue(m[2]) };

  // Chai / Vitest: "expected 6 to be 5 // Object.is equality", "expected [ 1 ] to deeply equal [ 2 ]"
  m = t.match(
    /\bexpected (\S.{0,499}?) to (?:not )?(?:deeply equal|strictly equal|loosely equal|deep equal|be close to|equal|eql|be|include|contain|have length of|have length|match object|match)\s+(\S.{0,499}?)(?:\s+\/\/.{0,200})?$/m,
  );
  if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };

  // Node assert.match: "The input did not match the regular expression /€/. Input:\n\n'$5.00'"
  m = t.match(/\bThe input did not match the regular expression (\/.+\/[a-z]*)\. Input:\s*\n(?:\s*\n)?\s*(\S.*)$/m);
  if (m) return { expected: cleanValue(m[1]), actual: cleanValue(m[2]) };

  // JUnit 4 / AssertJ: "expected:<5> but was:<6>"
  m = t.match(/expected:\s*<([\s\S]*?)>\s*but was:\s*<([\s\S]*?)>/);
  if (m) return { expected: cleanValue(m[1]), actual: cleanValue(m[2]) };

  // Node assert: "Expected values to be strictly equal:\n\n6 !== 5" (actual first)
  if (/Expected values to be (?:strictly |loosely )?equal/.test(t)) {
    m = t.match(/^[ \t]*(\S.*?) (?:!==|!=) (.*\S)[ \t]*$/m);
    if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };
  }

  // Node assert with a message of its own: "AssertionError [ERR_ASSERTION]: boiling point\n\n211 !== 212"
  if (/\bERR_ASSERTION\b|AssertionError \[/.test(t)) {
    m = t.match(/^[ \t]*(\S.{0,500}?) (?:!==|!=) (.{0,499}\S)[ \t]*$/m);
    if (m && !/[:]\s*$/.test(m[1]!)) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };
  }

  // pytest assertion rewriting: "assert 6 == 5" (actual on the left by convention)
  m = t.match(/^(?:E\s+)?(?:AssertionError: )?assert (.+?) == (.+)$/m);
  if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };

  // unittest / legacy assert: "AssertionError: 6 != 5", "AssertionError [ERR_ASSERTION]: 6 == 5", "Lists differ: [1] != [2]".
  // Not pytest's "assert 80 != 80": an inequality that held has no expected value.
  m = t.match(/AssertionError(?: \[ERR_ASSERTION\])?: (?!assert )(?:\w+s differ: )?(.+?) (?:!==|!=|===|==) (.+)$/m);
  if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };

  // Rust assert_eq!: "left: 6\n right: 5" (older: "left: `6`,")
  m = t.match(/^[ \t]*left:\s*(.+)\n\s*right:\s*(.+)$/m);
  if (m) return { expected: cleanValue(m[2]?.replace(/^`|`,?$/g, '')), actual: cleanValue(m[1]?.replace(/^`|`,?$/g, '')) };

  // Go: "Add(2, 3) = 6; want 5", "got 6, want 5", "want 5, got 6", "got: 6\n want: 5". Values are bounded (cleanValue
  // keeps 500 characters) and start and end at a non-blank, so "= = =", "got got got" or a sea of blanks stays linear.
  m =
    t.match(/=[ \t]*(\S.{0,499}?)[;,][ \t]*want[ \t]+(\S.{0,499})$/m) ??
    t.match(/\bgot(?:[ \t]*[:=])?[ \t]+(\S(?:.{0,498}?\S)??),?\s+want(?:[ \t]*[:=])?[ \t]+(\S.{0,499})$/m);
  if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };
  m = t.match(/\bwant(?:[ \t]*[:=])?[ \t]+(\S(?:.{0,498}?\S)??),?\s+got(?:[ \t]*[:=])?[ \t]+(\S.{0,499})$/m);
  if (m) return { expected: cleanValue(m[1]), actual: cleanValue(m[2]) };

  // Hand-written messages (GDScript, shell checks): "Expected 100, got 0", "expected 5 but got 6"
  m = t.match(/\bexpected:?\s+(\S(?:.{0,498}?\S)??),?\s+(?:but\s+)?got:?[ \t]+(\S(?:.{0,498}\S)?)[ \t]*$/im);
  if (m) return { expected: cleanValue(m[1]), actual: cleanValue(m[2]) };

  // C check macros: 'CHECK_STR failed: expected "x", actual ""' (values quoted, so an empty one is still a value).
  // On one line, with the comma: testify's "expected: 5\n actual  : 6" is read further down.
  m = t.match(/\bexpected[ \t]+(\S(?:.{0,498}?\S)??),[ \t]+actual[ \t]+(\S(?:.{0,498}\S)?)[ \t]*$/im);
  if (m) return { expected: cleanValue(m[1]), actual: cleanValue(m[2]) };

  // testify and similar: "expected: 5" / "actual  : 6" on their own lines
  const e = t.match(/^[ \t]*(?:Error:\s+)?expected\s*:\s*(.+)$/im);
  const a = t.match(/^[ \t]*actual\s*:\s*(.+)$/im);
  if (e && a) return { expected: cleanValue(e[1]), actual: cleanValue(a[1]) };

  // Vitest when a value is not printable inline: "- Expected:\nnull\n\n+ Received:\nundefined"
  m = t.match(/^[ \t]*- Expected:\s*\n\s*(\S.*)\n\s*\n\s*\+ Received:\s*\n\s*(\S.*)$/m);
  if (m) return { expected: cleanValue(m[1]), actual: cleanValue(m[2]) };

  // Vitest/Jest diff with a single changed line: "- Expected\n+ Received\n\n- 5\n+ 6"
  if (/^[ \t]*- Expected\s*$/m.test(t) && /^[ \t]*\+ Received\s*$/m.test(t)) {
    const minus = [...t.matchAll(/^[ \t]*- (?!Expected\s*$)(.*)$/gm)];
    const plus = [...t.matchAll(/^[ \t]*\+ (?!Received\s*$)(.*)$/gm)];
    if (minus.length === 1 && plus.length === 1) return { expected: cleanValue(minus[0]![1]), actual: cleanValue(plus[0]![1]) };
  }
  return { expected: null, actual: null };
}

/**
 * A name that carries its failure's values, as hand-written runners print it ("test_player_health: Expected 100, got
 * 0"): the name before the first ": " and the message after it, when the message holds an expected
 * and a got value. Null when the name has no such tail (a colon alone is part of many names: "parse: handles spaces").
 */
export function splitNamedValues(text: string): { name: string; message: string; expected: string; actual: string } | null {
  const m = /^(\S.*?):\s+(\S.*)$/.exec(text.trim());
  if (!m || !/\bexpected\b/i.test(m[2]!) || !/\b(?:got|but was|received|actual)\b/i.test(m[2]!)) return null;
  const { expected, actual } = extractExpectedActual(m[2]!);
  return expected !== null && actual !== null ? { name: m[1]!.trim(), message: m[2]!.trim(), expected, actual } : null;
}

// Paths that are never where a test failure should be fixed.
export const LIBRARY_PATH = /node_modules|site-packages|dist-packages|^node:|^internal\/|<frozen|\/rustc\/|\/usr\/lib\/|\/go\/src\/(?:runtime|testing)\//;

/** Paths that look like test files: where the failing line of a test is. */
export const TEST_FILE =
  /(?:^|[\\/])(?:__tests__|tests?|spec)[\\/]|[._-](?:test|spec)\.\w+$|(?:^|[\\/])test_[^\\/]*\.py$|_test\.(?:go|py)$|Tests?\.(?:java|kt|cs)$/;

/** Strips a file:// scheme; returns null for library code. */
export function userFile(file: string): string | null {
  const f = file.replace(/^file:\/\//, '');
  return LIBRARY_PATH.test(f) ? null : f;
}

/** "path:line(:col)" as a location, or null. */
export function parseLocationString(text: string): { file: string; line: number } | null {
  const m = text.trim().match(/^(.+?):(\d+)(?::\d+)?$/);
  if (!m) return null;
  const file = userFile(m[1]!);
  return file ? { file, line: Number(m[2]) } : null;
}

/**
 * The first user-code location mentioned in `text`: stack frames, "file.ts:3:5", pytest "tests/x.py:5:",
 * Python 'File "x.py", line 5'. Candidates in `preferFile` (by suffix or basename) win.
 */
export function findLocation(text: string, preferFile?: string | null): { file: string; line: number } | null {
  const t = stripAnsi(text);
  const patterns = [
    // Starts only at the first character of a path: retrying from inside a long token is quadratic.
    /(?<![\w.@~+\-/\\])(?:file:\/\/)?((?:[A-Za-z]:)?[\w.@~+\-/\\]*[\w@~+-]\.[A-Za-z][A-Za-z0-9]{0,5}):(\d+)(?::\d+)?/g,
    /File "([^"]+)", line (\d+)/g,
  ];
  const hits: { index: number; file: string; line: number }[] = [];
  for (const re of patterns) {
    for (const m of t.matchAll(re)) {
      const file = userFile(m[1]!);
      if (file) hits.push({ index: m.index ?? 0, file, line: Number(m[2]) });
    }
  }
  hits.sort((x, y) => x.index - y.index);
  const found = hits.map((h) => ({ file: h.file, line: h.line }));
  if (found.length === 0) return null;
  if (preferFile) {
    const base = preferFile.split(/[\\/]/).pop()!;
    const stem = (p: string): string =>
      p
        .split(/[\\/]/)
        .pop()!
        .replace(/\.\w+$/, '');
    const preferred =
      found.find((f) => f.file.endsWith(preferFile) || preferFile.endsWith(f.file) || f.file.split(/[\\/]/).pop() === base) ??
      // A class or module name as the hint ("com.shop.CalcTest", "tests.test_calc"): same file name, any extension.
      found.find((f) => stem(f.file) === stem(preferFile));
    if (preferred) return preferred;
  }
  // The line in the test beats a line in the code under test that the stack passes through first.
  return found.find((f) => TEST_FILE.test(f.file)) ?? found[0]!;
}

/** First lines of a failure text, up to its stack trace: the part a person reads. */
export function leadText(text: string): string | null {
  const lines: string[] = [];
  for (const line of stripAnsi(text).split('\n')) {
    if (/^\s+at\s/.test(line) || /^\s*❯\s/.test(line)) break;
    lines.push(line);
  }
  const s = lines.join('\n').trim();
  return s === '' ? null : clip(s, MAX_MESSAGE_CHARS);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export function sameFile(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

/** A YAML/JSON diagnostic value as one readable string (null when absent). */
export function diagValue(v: unknown): string | null {
  if (v === undefined) return null;
  if (v === null) return 'null';
  if (typeof v === 'string') return cleanValue(v);
  // YAML prints an array as a mapping of indexes (node:test's TAP diagnostics): show it as the array it was.
  if (typeof v === 'object' && !Array.isArray(v)) {
    const keys = Object.keys(v);
    if (keys.length > 0 && keys.every((k, i) => k === String(i))) v = keys.map((k) => (v as Record<string, unknown>)[k]);
  }
  try {
    return cleanValue(JSON.stringify(v));
  } catch {
    return cleanValue(String(v));
  }
}
