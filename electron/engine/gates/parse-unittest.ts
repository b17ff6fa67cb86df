// Failing tests from `python -m unittest` (and Django/nose-style runners that print the same "FAIL: name (module.Class)" blocks).
import { extractExpectedActual, userFile, MAX_FAILED_TESTS, clip, MAX_MESSAGE_CHARS, type FailedTest } from './failure-text';
import { compileError, testFailure, counted, type FailureParser } from './failure-parser';

// A subTest adds its message and parameters: "FAIL: test_x (mod.Class.test_x) [msg] (raw='1,5€')".
const BLOCK = /^(FAIL|ERROR): (\S+) \(([^)]+)\)((?: \[.*?\])?(?: \(.*\))?)\s*$/;

function parse(text: string): FailedTest[] {
  const lines = text.split('\n');
  const out: FailedTest[] = [];
  for (let i = 0; i < lines.length && out.length < MAX_FAILED_TESTS; i++) {
    const m = lines[i]!.match(BLOCK);
    if (!m) continue;
    const body: string[] = [];
    let j = i + 1;
    if (/^-{10,}$/.test(lines[j] ?? '')) j++;
    for (; j < lines.length && !/^[=-]{10,}$/.test(lines[j]!); j++) body.push(lines[j]!);
    const frames = body
      .map((l) => l.match(/^\s*File "([^"]+)", line (\d+), in (\S+)/))
      .filter((f): f is RegExpMatchArray => f !== null && userFile(f[1]!) !== null);
    const method = m[2]!;
    const where = m[3]!; // "tests.test_stack.StackTest.test_size" (3.11+) or "tests.test_stack.StackTest"
    const inTest = frames.find((f) => f[3] === method) ?? frames[frames.length - 1];
    const excAt = body.findIndex((l) => /^[A-Za-z_][\w.]*(?:Error|Exception|Failure)\b/.test(l));
    const excText = excAt >= 0 ? body.slice(excAt).join('\n').trim() : '';
    // A module that failed to import: unittest reports it as "ERROR: tests.test_x (unittest.loader._FailedTest…)".
    if (where.startsWith('unittest.loader._FailedTest')) {
      const exc = [...body.join('\n').matchAll(/^(\w+(?:Error|Exception)): (.*)$/gm)].pop();
      const last = frames[frames.length - 1];
      out.push(compileError({ file: last?.[1] ?? null, line: last ? Number(last[2]) : null, code: exc?.[1] ?? 'ImportError', message: exc?.[2] ?? excText }));
      continue;
    }
    // unittest's "a != b : msg" puts the actual value first (assertEqual(first=actual, second=expected) by convention).
    const first = excText.split('\n')[0] ?? '';
    // assertAlmostEqual adds " within 3 places (0.0099 difference)"; a msg= argument adds " : msg".
    const ne = first.match(/^AssertionError: (?:\w+s differ: )?(.+?) != (.+?)(?: within .+? (?:places|delta) \(.*\))?(?: : .*)?$/);
    const ea = ne ? { actual: ne[1]!.trim(), expected: ne[2]!.trim() } : extractExpectedActual(excText);
    const className = where.endsWith(`.${method}`) ? where.slice(0, -method.length - 1) : where;
    out.push(
      testFailure(`${className}.${method}${m[4] ?? ''}`, {
        message: excText ? clip(excText, MAX_MESSAGE_CHARS) : null,
        expected: ea.expected,
        actual: ea.actual,
        file: inTest?.[1] ?? null,
        line: inTest ? Number(inTest[2]) : null,
      }),
    );
  }
  return out;
}

export const unittestParser: FailureParser = {
  // "Ran 0 tests in 0.000s"
  counts: [counted(/^Ran (\d+) tests? in /gm)],
  id: 'unittest',
  marker: /^(?:FAIL|ERROR): \S|^Traceback \(most recent call last\):/,
  detect: (t) => /^(?:FAIL|ERROR): \S+ \([^)]+\)(?: \[.*?\])?(?: \(.*\))?\s*$/m.test(t),
  parse,
};
