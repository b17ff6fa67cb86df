// Failing tests from Unity's (the C unit-test framework's) output: "file:line:test_name:FAIL: message" lines.
import { clip, MAX_FAILED_TESTS, MAX_MESSAGE_CHARS, type FailedTest } from './failure-text';
import { testFailure, type FailureParser } from './failure-parser';

/** A Unity result line; the path holds no ":" (a Windows drive letter is allowed), the name is a C identifier. */
const RESULT = /^((?:[A-Za-z]:)?[^\s:][^:]*):(\d+):([A-Za-z_]\w*):FAIL(?::[ \t]?(.*))?$/;

/**
 * Unity's own values: "Expected 1 Was 0", "Element 2 Expected 'a' Was 'b'", with the test's message after ". ".
 * Strings are quoted ('…'), so a value holding ". " is read to its closing quote. Line-local, no backtracking.
 */
export function unityValues(message: string): { expected: string | null; actual: string | null } {
  const at = message.indexOf('Expected ');
  const was = message.indexOf(' Was ', at);
  if (at < 0 || was < 0 || (at > 0 && !/^Element \d+ $/.test(message.slice(0, at)))) return { expected: null, actual: null };
  const value = (v: string): string => {
    if (v.startsWith("'")) {
      const close = v.indexOf("'", 1);
      return close > 0 ? v.slice(0, close + 1) : v;
    }
    const stop = v.indexOf('. ');
    return (stop >= 0 ? v.slice(0, stop) : v).replace(/\.$/, '').trim();
  };
  const expected = value(message.slice(at + 'Expected '.length, was));
  const actual = value(message.slice(was + ' Was '.length));
  return { expected: expected || null, actual: actual || null };
}

/** One failure per Unity FAIL line, named by its test function, at the file:line Unity printed. */
export function parseUnityLines(lines: Iterable<string>, prefix = ''): FailedTest[] {
  const out: FailedTest[] = [];
  for (const l of lines) {
    if (out.length >= MAX_FAILED_TESTS) break;
    const m = RESULT.exec(l.trimEnd());
    if (!m) continue;
    const message = m[4]?.trim() || null;
    out.push(
      testFailure(`${prefix}${m[3]!}`, {
        message: message ? clip(message, MAX_MESSAGE_CHARS) : null,
        ...(message ? unityValues(message) : {}),
        file: m[1]!,
        line: Number(m[2]),
      }),
    );
  }
  return out;
}

export const unityParser: FailureParser = {
  id: 'unity',
  // [^:\n]: the gate log runs markers over whole chunks with the m flag; a path read across newlines was quadratic there.
  marker: /^(?:[A-Za-z]:)?[^\s:][^:\n]*:\d+:[A-Za-z_]\w*:FAIL\b/,
  detect: (t) => /^(?:[A-Za-z]:)?[^\s:][^:\n]*:\d+:[A-Za-z_]\w*:FAIL\b/m.test(t),
  parse: (t) => parseUnityLines(t.split('\n')),
};
