// How many tests a gate ran, from what the runner printed or its JUnit/JSON report: 0 means "the gate ran no tests", null that no test runner's summary was seen.
import { stripAnsi } from './failure-text';

/**
 * Evidence of test counts: each pattern yields a count (a summary line of a runner). Several runners (or a
 * workspace of packages) may print several lines; the gate ran tests when any of them counts more than 0.
 */
const COUNTS: ReadonlyArray<{ re: RegExp; count: (m: RegExpExecArray) => number }> = [
  // pytest: "collected 3 items", "no tests ran in 0.99s", "3 passed, 1 failed in 0.1s"
  { re: /^collected (\d+) items?\b/gm, count: (m) => Number(m[1]) },
  { re: /^=*[ \t]*no tests ran\b/gm, count: () => 0 },
  // jest: "Tests:       1 failed, 3 total", "No tests found, exiting with code 1"
  { re: /^Tests:\s+.*?(\d+) total$/gm, count: (m) => Number(m[1]) },
  { re: /^No tests found, exiting with code \d+/gm, count: () => 0 },
  // vitest: "      Tests  2 passed (2)", "      Tests  no tests", "No test files found, exiting with code 1"
  { re: /^[ \t]*Tests\s+(?:.*\()?(\d+)\)?\s*$/gm, count: (m) => Number(m[1]) },
  { re: /^[ \t]*Tests\s+no tests\s*$/gm, count: () => 0 },
  { re: /^No test files found, exiting with code \d+/gm, count: () => 0 },
  // go: "ok  	example.com/x	0.01s", "--- FAIL", "?   	example.com/x	[no test files]", "ok … [no tests to run]"
  { re: /^(?:ok|FAIL)[ \t]+\S+[ \t]+(?!.*\[no tests to run\])\S.*$/gm, count: () => 1 },
  { re: /^(?:---|===) (?:RUN|PASS|FAIL)\b/gm, count: () => 1 },
  { re: /^\?\s+\S+\s+\[no test files\]/gm, count: () => 0 },
  { re: /^ok\s+\S+\s+.*\[no tests to run\]/gm, count: () => 0 },
  { re: /"Action":"(?:run|pass|fail)","Package":"[^"]*","Test":/g, count: () => 1 },
  { re: /"Output":"\?\s+(?:\\t)?\S+?(?:\\t|\s)+\[no test files\]/g, count: () => 0 },
  // unittest: "Ran 0 tests in 0.000s"
  { re: /^Ran (\d+) tests? in /gm, count: (m) => Number(m[1]) },
  // cargo: "running 0 tests"
  { re: /^running (\d+) tests?$/gm, count: (m) => Number(m[1]) },
  // mocha: "0 passing (1ms)", "Error: No test files found"
  { re: /^[ \t]*(\d+) passing\b/gm, count: (m) => Number(m[1]) },
  { re: /^[ \t]*(\d+) failing\b/gm, count: (m) => Number(m[1]) },
  { re: /^Error: No test files found\b/gm, count: () => 0 },
  // node --test (spec and TAP): "ℹ tests 0", "# tests 0"
  { re: /^[ℹ#] tests (\d+)$/gm, count: (m) => Number(m[1]) },
  // TAP plan: "1..0"
  { re: /^1\.\.(\d+)\b/gm, count: (m) => Number(m[1]) },
];

/** Tests counted by a JUnit XML report (its <testsuite tests="…"> or <testcase> elements) or a jest JSON report; null when it is neither. */
export function countTestsInReport(report: string): number | null {
  const text = report.trim();
  if (text.startsWith('<')) {
    if (/<testcase\b/.test(text)) return (text.match(/<testcase\b/g) ?? []).length;
    const suites = [...text.matchAll(/<testsuites?\b[^>]*?\btests="(\d+)"/g)].map((m) => Number(m[1]));
    return suites.length ? Math.max(...suites) : null;
  }
  if (text.startsWith('{')) {
    try {
      const doc = JSON.parse(text) as { numTotalTests?: unknown };
      return typeof doc.numTotalTests === 'number' ? doc.numTotalTests : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** Tests the gate ran, as far as its output and report say: a number, or null when neither shows a test runner's count. */
export function countTests(output: string, report: string | null = null): number | null {
  let seen: number | null = report ? countTestsInReport(report) : null;
  if (seen !== null && seen > 0) return seen;
  const text = stripAnsi(output);
  for (const { re, count } of COUNTS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const n = count(m);
      if (n > 0) return n;
      seen ??= 0;
    }
  }
  // A jest --json report printed on stdout.
  const json = /\{"numFailedTestSuites":[\s\S]*"numTotalTests":(\d+)/.exec(text);
  if (json) {
    const n = Number(json[1]);
    if (n > 0) return n;
    seen ??= 0;
  }
  return seen;
}

/** The gate ran no tests: its runner's summary or report counted none. */
export const ranNoTests = (output: string, report: string | null = null): boolean => countTests(output, report) === 0;
