// What every part of the classifier returns (an error class, a one-line message, hints) and the small helpers they share.
import type { ErrorClass } from '../../../shared/domain';

export interface Classification {
  errorClass: ErrorClass;
  /** One line a person can read, e.g. "2 tests failed: adds numbers, subtracts". */
  message: string;
  hints: string[];
}

const MAX_MESSAGE = 300;

export function oneLine(text: string): string {
  // One pass: a run of blanks with or without a newline becomes one space (a `\s*\n\s*` pattern would be quadratic).
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length <= MAX_MESSAGE ? s : `${s.slice(0, MAX_MESSAGE - 1)}…`;
}

/** A classification with only its specific hints; the classifier adds the analysis and the class's own hints. */
export function result(errorClass: ErrorClass, message: string, extraHints: string[] = []): Classification {
  return { errorClass, message: oneLine(message), hints: extraHints };
}

export function firstMatch(text: string, patterns: RegExp[]): RegExpMatchArray | null {
  for (const re of patterns) {
    const m = text.match(re);
    if (m) return m;
  }
  return null;
}

export function locationSuffix(file: string | undefined, line: string | number | undefined): string {
  return file ? ` (${file.trim()}${line ? `:${line}` : ''})` : '';
}

export function moreSuffix(count: number): string {
  return count > 1 ? ` and ${count - 1} more error${count > 2 ? 's' : ''}` : '';
}

/** The whole line of `text` around `index`. */
export function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end < 0 ? undefined : end);
}

/**
 * Whether `line` is a side message: test failures were parsed and the line is in none of them (a git-hook installer's
 * "Read-only file system" before the tests ran). A side message never outranks the failing tests.
 */
export type SideMessage = (line: string) => boolean;
