// Failing tests from Vitest's default and verbose console reporters: " FAIL  file > suite > test" blocks, "❯ file:line:col".
import { extractExpectedActual, leadText, parseLocationString, MAX_FAILED_TESTS, type FailedTest } from './failure-text';
import { CUT_MARKER, testFailure, counted, none, type FailureParser } from './failure-parser';

const FAIL = /^\s*FAIL\s+(\S+?\.[cm]?[jt]sx?)(?: > (.+?))?(?: \[ \S+ \])?\s*$/;

function parse(text: string): FailedTest[] {
  const lines = text.split('\n');
  const out: FailedTest[] = [];
  for (let i = 0; i < lines.length && out.length < MAX_FAILED_TESTS; i++) {
    const m = lines[i]!.match(FAIL);
    if (!m) continue;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !FAIL.test(lines[j]!) && !CUT_MARKER.test(lines[j]!) && !/^\s*⎯{3,}/.test(lines[j]!) && !/^\s*Test Files\s/.test(lines[j]!); j++)
      body.push(lines[j]!);
    i = j - 1;
    const frame = body.map((l) => l.match(/^\s*❯ (\S+?:\d+(?::\d+)?)\s*$/)).find((f) => f !== null && parseLocationString(f[1]!) !== null);
    const loc = frame ? parseLocationString(frame[1]!) : null;
    const msgLines: string[] = [];
    for (const l of body) {
      if (/^\s*❯ /.test(l) || /^\s+at /.test(l)) break;
      msgLines.push(l);
    }
    const msg = msgLines.join('\n');
    const file = m[1]!;
    if (!m[2]) {
      // A file that failed to load: a syntax or import error, reported once for the file.
      const exc = msg.match(/^[ \t]*(\w*Error): (.+)$/m);
      out.push(
        testFailure(file, {
          message: exc ? `${exc[1]}: ${exc[2]}` : (leadText(msg) ?? 'Failed to load the test file'),
          file: loc?.file ?? file,
          line: loc?.line ?? null,
        }),
      );
      continue;
    }
    const first = msgLines.find((l) => l.trim() !== '') ?? '';
    // The assertion line ("expected 6 to be 5") first; the diff under it when that line has no values.
    let { expected, actual } = /\bexpected\b/.test(first) ? extractExpectedActual(first) : { expected: null, actual: null };
    if (expected === null && actual === null) ({ expected, actual } = extractExpectedActual(msg));
    out.push(testFailure(`${file} > ${m[2]}`, { message: leadText(msg), expected, actual, file: loc?.file ?? file, line: loc?.line ?? null }));
  }
  return out;
}

export const vitestTextParser: FailureParser = {
  // "      Tests  2 passed (2)", "      Tests  no tests", "No test files found, exiting with code 1"
  counts: [counted(/^[ \t]*Tests\s+(?:.*\()?(\d+)\)?\s*$/gm), none(/^[ \t]*Tests\s+no tests\s*$/gm), none(/^No test files found, exiting with code \d+/gm)],
  id: 'vitest',
  marker: /^[ \t]*FAIL[ \t]+\S|^[ \t]*(?:×|✗) \S|^[ \t]*⎯+ Failed Tests \d+/,
  detect: (t) => /^[ \t]*FAIL\s+\S+\.[cm]?[jt]sx?(?: > | \[ )/m.test(t),
  parse,
};
