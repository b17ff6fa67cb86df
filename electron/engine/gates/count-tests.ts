// How many tests a gate ran, from what the runner printed or its JUnit/JSON report: 0 means "the gate ran no tests", null
// that no test runner's summary was seen. Each runner's summary lines are its parser's (FailureParser.counts): this asks
// every parser in FAILURE_PARSERS, so a new runner brings its counting with its parser.
import { stripAnsi } from './failure-text';
import { FAILURE_PARSERS } from './parse-failures';

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
  // Several runners (or a workspace of packages) may print several summaries: the gate ran tests when any counts more than 0.
  for (const parser of FAILURE_PARSERS) {
    for (const { re, count } of parser.counts ?? []) {
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.global ? re.exec(text) : null) {
        const n = count(m);
        if (n > 0) return n;
        seen ??= 0;
      }
    }
  }
  return seen;
}

/** The gate ran no tests: its runner's summary or report counted none. */
export const ranNoTests = (output: string, report: string | null = null): boolean => countTests(output, report) === 0;
