// Failing tests from Jest's default console reporter: "● suite › test" blocks with Expected/Received and a stack frame.
import { extractExpectedActual, findLocation, leadText, MAX_FAILED_TESTS, type FailedTest } from './failure-text';
import { CUT_MARKER, testFailure, counted, none, type FailureParser } from './failure-parser';

const BULLET = /^\s*● (.+)$/;

function parse(text: string): FailedTest[] {
  const lines = text.split('\n');
  const out: FailedTest[] = [];
  let suiteFile: string | null = null;
  for (let i = 0; i < lines.length && out.length < MAX_FAILED_TESTS; i++) {
    const fail = lines[i]!.match(/^\s*FAIL\s+(\S+\.[cm]?[jt]sx?)\b/);
    if (fail) {
      suiteFile = fail[1]!;
      continue;
    }
    const m = lines[i]!.match(BULLET);
    if (!m) continue;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (BULLET.test(l) || CUT_MARKER.test(l) || /^\s*(?:FAIL|PASS)\s+\S/.test(l) || /^(?:Test Suites|Tests|Snapshots|Time):/.test(l)) break;
      body.push(l);
    }
    i = j - 1;
    const all = body.join('\n');
    const title = m[1]!.trim();
    if (title === 'Test suite failed to run') {
      const loc = findLocation(all, suiteFile);
      // Reported like the JSON reporter's suite failure: one entry for the file (its cause may be a test or the code).
      out.push(
        testFailure(suiteFile ?? '(test file)', {
          message: leadText(all) ?? 'Test suite failed to run',
          file: loc?.file ?? suiteFile,
          line: loc?.line ?? null,
        }),
      );
      continue;
    }
    // The message is what precedes the code frame ("  > 5 | …") or the stack.
    const msgLines: string[] = [];
    for (const l of body) {
      if (/^\s*(?:>\s*)?\d+ \|/.test(l) || /^\s+at /.test(l)) break;
      msgLines.push(l);
    }
    const message = leadText(msgLines.join('\n'));
    const { expected, actual } = extractExpectedActual(msgLines.join('\n'));
    const stack = body.filter((l) => /^\s+at /.test(l)).join('\n');
    const loc = findLocation(stack, suiteFile) ?? findLocation(all, suiteFile);
    const inSuite = loc && suiteFile && !loc.file.endsWith(suiteFile) && !suiteFile.endsWith(loc.file) ? null : loc;
    out.push(
      testFailure(suiteFile ? `${suiteFile} > ${title}` : title, {
        message,
        expected,
        actual,
        file: inSuite?.file ?? loc?.file ?? suiteFile,
        line: inSuite?.line ?? loc?.line ?? null,
      }),
    );
  }
  return out;
}

export const jestTextParser: FailureParser = {
  // "Tests:       1 failed, 3 total", "No tests found, exiting with code 1"
  counts: [counted(/^Tests:\s+.*?(\d+) total$/gm), none(/^No tests found, exiting with code \d+/gm)],
  id: 'jest',
  marker: /^[ \t]*● \S|^[ \t]*FAIL[ \t]/,
  detect: (t) => /^[ \t]*● \S/m.test(t),
  parse,
};
