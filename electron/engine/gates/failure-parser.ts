// The one interface every output format's failure parser implements: a cheap detector and a parser of normalised text.
import { stripAnsi, clip, MAX_MESSAGE_CHARS, type FailedTest } from './failure-text';

export interface FailureParser {
  /** Short id of the format, e.g. "pytest", "cargo-test", "tsc". */
  id: string;
  /** A cheap test on the normalised text (no ANSI, LF line ends): does this format appear in it at all? */
  detect(text: string): boolean;
  /** Failing tests or errors found in the normalised text; [] when none. May throw: callers treat that as []. */
  parse(text: string): FailedTest[];
  /**
   * A normalised line that starts (or heads) a failure in this format, tested on every line of a gate's output as it
   * streams (gate-log.ts): such lines are kept with their context however long the output. Linear and line-local.
   */
  marker?: RegExp;
  /**
   * How many tests a run in this format reported: each expression (global, multiline where it reads lines) finds one of
   * the runner's summary lines and `count` reads the number in it; 0 is a runner saying it ran none. count-tests.ts asks
   * every parser's, so a runner's counting lives with its parser. Linear, like everything that reads output.
   */
  counts?: readonly TestCount[];
}

/** One summary line of a test runner, and the number of tests it says ran. */
export interface TestCount {
  re: RegExp;
  count: (m: RegExpExecArray) => number;
}

/** A summary line that reports no test at all ("no tests ran", "No test files found"). */
export const none = (re: RegExp): TestCount => ({ re, count: () => 0 });
/** A summary line whose first group is the number of tests. */
export const counted = (re: RegExp): TestCount => ({ re, count: (m) => Number(m[1]) });
/** A line that shows one test (or package) ran, whatever its outcome. */
export const one = (re: RegExp): TestCount => ({ re, count: () => 1 });

/** The note bounded-output.ts leaves where it cut a long output: nothing before it continues after it. */
export const CUT_MARKER = /^\[… .+ (?:elided|characters elided)\b.*…\]$/;

/** What every text parser reads: the text a terminal showed (colours, cursor moves and \r redraws resolved, CRLF as "\n"). */
export function normaliseOutput(output: string): string {
  return stripAnsi(output);
}

/** A failing test with only what is known; the rest null. */
export function testFailure(name: string, over: Partial<FailedTest> = {}): FailedTest {
  return { name: name.trim() || '(unnamed test)', message: null, expected: null, actual: null, file: null, line: null, ...over };
}

/** A compiler or linter error as a structured item: its name is "file:line:col CODE" so it reads like the tool's own line. */
export function compileError(e: { file: string | null; line: number | null; column?: number | null; code?: string | null; message: string }): FailedTest {
  const where = e.file ? `${e.file}${e.line !== null ? `:${e.line}${e.column ? `:${e.column}` : ''}` : ''}` : '';
  const name = [where, e.code ?? ''].filter(Boolean).join(' ') || e.message.split('\n')[0]!.slice(0, 120);
  return {
    kind: 'compile',
    name,
    message: clip(e.message.trim(), MAX_MESSAGE_CHARS),
    expected: null,
    actual: null,
    file: e.file,
    line: e.line,
    column: e.column ?? null,
    code: e.code ?? null,
  };
}
