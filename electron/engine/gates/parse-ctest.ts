// Failing tests from ctest's output (`ctest --output-on-failure`): each test's result line, the output it printed
// under it, and the "The following tests FAILED:" summary for the tests whose result lines were cut.
import { clip, extractExpectedActual, findLocation, MAX_FAILED_TESTS, MAX_MESSAGE_CHARS, type FailedTest } from './failure-text';
import { CUT_MARKER, testFailure, type FailureParser } from './failure-parser';
import { parseUnityLines } from './parse-unity';

/** "2/3 Test #2: name ......***Failed    0.01 sec": the part before the name. */
const RESULT_HEAD = /^ *\d+\/\d+ +Test +#\d+: /;
/** Where the status starts after the name: ctest pads the name with " ..." to a column, or with one space when it is longer. */
const STATUS = / \.*(?:Passed|\*\*\*|Subprocess aborted|Child aborted|Exit code|Not Run|Skipped|Failed|Exception)/;
/** A summary line: "\t  2 - test_pop (Subprocess aborted)". */
const SUMMARY_LINE = /^\s+\d+ - (\S.*) \(([^()]*)\)$/;
/** A line that ends the output printed under a result line. */
const OUTPUT_END = /^ *(?:Start +\d+: |\d+\/\d+ +Test +#\d+: |\d+% tests passed|The following tests |Total Test time|Errors while running CTest)/;

interface CTestResult {
  name: string;
  status: string;
  failed: boolean;
}

/** A result line's test name and status, or null; read with string searches (a long line is not retried from each position). */
function resultLine(line: string): CTestResult | null {
  const head = RESULT_HEAD.exec(line);
  if (!head) return null;
  const rest = line.slice(head[0].length).trimEnd();
  const at = STATUS.exec(rest);
  if (!at) return null;
  const name = rest.slice(0, at.index).trim();
  let status = rest.slice(at.index).replace(/^ \.*/, '');
  // The time at the end ("  0.01 sec") is no part of the status.
  if (status.endsWith(' sec')) status = status.slice(0, status.lastIndexOf(' ', status.length - 5)).trim();
  const failed = !/^(?:\*\*\*)?(?:Passed|Skipped|Not Run \(Disabled\))/.test(status);
  return name ? { name, status, failed } : null;
}

function failureOf(r: CTestResult, output: string[]): FailedTest[] {
  // A test executable built with Unity names its own failing functions: each is reported under the ctest test's name.
  const unity = parseUnityLines(output, `${r.name} > `);
  if (unity.length > 0) return unity;
  const printed = output.join('\n').trim();
  const message = clip(printed ? `${r.status}\n${printed}` : r.status, MAX_MESSAGE_CHARS);
  const where = printed ? findLocation(printed) : null;
  return [testFailure(r.name, { message, ...(printed ? extractExpectedActual(printed) : {}), file: where?.file ?? null, line: where?.line ?? null })];
}

function parseCTest(text: string): FailedTest[] {
  const out: FailedTest[] = [];
  const seen = new Set<string>();
  // Declared wide: close() resets it from inside a closure, which narrowing does not see.
  let open = null as { result: CTestResult; output: string[] } | null;
  const close = (): void => {
    if (open && !seen.has(open.result.name)) {
      seen.add(open.result.name);
      out.push(...failureOf(open.result, open.output));
    }
    open = null;
  };
  let inSummary = false;
  for (const line of text.split('\n')) {
    if (out.length >= MAX_FAILED_TESTS) break;
    if (CUT_MARKER.test(line)) {
      close();
      continue;
    }
    const r = resultLine(line);
    if (r) {
      close();
      if (r.failed) open = { result: r, output: [] };
      continue;
    }
    if (OUTPUT_END.test(line)) {
      close();
      inSummary = line.startsWith('The following tests FAILED:');
      continue;
    }
    if (open) {
      if (open.output.length < 200) open.output.push(line);
      continue;
    }
    if (inSummary) {
      const s = SUMMARY_LINE.exec(line);
      if (s && !seen.has(s[1]!)) {
        seen.add(s[1]!);
        out.push(testFailure(s[1]!, { message: s[2]! }));
      } else if (!s) inSummary = false;
    }
  }
  close();
  return out.slice(0, MAX_FAILED_TESTS);
}

export const ctestParser: FailureParser = {
  id: 'ctest',
  marker: /^ *\d+\/\d+ +Test +#\d+: .*(?:\*\*\*|Subprocess aborted|Child aborted|Exit code|Not Run )|^The following tests FAILED:/,
  detect: (t) => t.includes('The following tests FAILED:') || (/^ *\d+\/\d+ +Test +#\d+: /m.test(t) && / tests failed out of \d+/.test(t)),
  parse: parseCTest,
};
