// ctest's and Unity's outputs: failing tests by name with the file:line and message their output gives (issue 29 item 5).
import { describe, expect, it } from 'vitest';
import { CUT_MARKER } from './failure-parser';
import { GateLog } from './gate-log';
import { FAILURE_LINE_MARKERS, isFailureLine, parseFailures } from './parse-failures';
import { unityValues } from './parse-unity';

const parse = (output: string) => parseFailures({ output });

/** ctest's lines for one test, as `ctest --output-on-failure` prints them. */
function ctestResult(n: number, of: number, name: string, status: string, output = ''): string {
  return `    Start ${n}: ${name}\n${n}/${of} Test #${n}: ${name} ${'.'.repeat(Math.max(0, 30 - name.length))}${status}    0.01 sec\n${output}`;
}

describe('parseFailures: ctest', () => {
  it('a failing test whose executable uses Unity: each failing Unity test under the ctest test’s name, with its values', () => {
    const out = [
      'Test project /w/build',
      ctestResult(
        1,
        2,
        'parser_tests',
        '***Failed',
        'test/test_parser.c:14:test_parses_empty:PASS\ntest/test_parser.c:27:test_parses_number:FAIL: Expected 42 Was 24\ntest/test_parser.c:33:test_rejects_junk:FAIL: Expected TRUE Was FALSE. junk accepted\n\n-----------------------\n3 Tests 2 Failures 0 Ignored \nFAIL\n',
      ),
      ctestResult(2, 2, 'io_tests', '   Passed'),
      '',
      '50% tests passed, 1 tests failed out of 2',
      '',
      'The following tests FAILED:',
      '\t  1 - parser_tests (Failed)',
      'Errors while running CTest',
    ].join('\n');
    expect(parse(out).map((f) => [f.name, f.file, f.line, f.expected, f.actual])).toEqual([
      ['parser_tests > test_parses_number', 'test/test_parser.c', 27, '42', '24'],
      ['parser_tests > test_rejects_junk', 'test/test_parser.c', 33, 'TRUE', 'FALSE'],
    ]);
  });

  it('only the summary is left (the result lines were cut from a long log): the names still come from it; disabled and passed tests are no failures', () => {
    const out = [
      ctestResult(1, 4, 'a', '   Passed'),
      ctestResult(2, 4, 'b', '***Not Run (Disabled)'),
      '[… 120 lines elided …]',
      '',
      '50% tests passed, 2 tests failed out of 4',
      '',
      'The following tests FAILED:',
      '\t  3 - c (Timeout)',
      '\t  4 - d with spaces (SEGFAULT)',
      'Errors while running CTest',
    ].join('\n');
    expect(CUT_MARKER.test('[… 120 lines elided …]')).toBe(true);
    expect(parse(out).map((f) => [f.name, f.message])).toEqual([
      ['c', 'Timeout'],
      ['d with spaces', 'SEGFAULT'],
    ]);
  });

  it('a failing test in the middle of a 100,000-test log is kept by the gate log and parsed with its output', () => {
    const log = new GateLog({ isFailureLine, markers: FAILURE_LINE_MARKERS, headBytes: 1024, tailBytes: 1024 });
    log.push('Test project /w/build\n');
    for (let i = 1; i <= 100_000; i++)
      log.push(
        i === 61_234
          ? ctestResult(i, 100_000, `t${i}`, '***Failed', `/w/tests/t${i}.c:9: expected 3, got 4\n\n`)
          : ctestResult(i, 100_000, `t${i}`, '   Passed'),
      );
    log.push('\n99% tests passed, 1 tests failed out of 100000\n');
    log.end();
    const text = log.toString();
    expect(text.length).toBeLessThan(20_000);
    expect(parse(text).map((f) => [f.name, f.file, f.line, f.expected, f.actual])).toEqual([['t61234', '/w/tests/t61234.c', 9, '3', '4']]);
  });
});

describe('parseFailures: Unity (run directly, not under ctest)', () => {
  // Unity's documented output: one "file:line:test:RESULT[: message]" line per test, then the counts and OK/FAIL.
  // Unity cannot be downloaded here, so these lines are written from its documentation, not recorded.
  it('each FAIL line is a failure at its file:line; PASS and IGNORE lines are not', () => {
    const out = [
      'test/TestProductionCode.c:21:test_FindFunction_WhichIsBroken_ShouldReturnZeroIfItemIsNotInList:PASS',
      "test/TestProductionCode.c:31:test_FindFunction_ShouldReturnTheIndexForItemsInList:FAIL: Expected 'abc' Was 'abd'. Function returned the wrong item",
      'test/TestProductionCode.c:44:test_FunctionWhichReturnsLocalVariable_ShouldReturnTheCurrentCounter:FAIL',
      'test/TestProductionCode.c:62:test_IgnoredTest:IGNORE: This Test Was Ignored On Purpose',
      'test/TestProductionCode2.c:18:test_Array:FAIL: Element 2 Expected 3 Was 4',
      '',
      '-----------------------',
      '5 Tests 3 Failures 1 Ignored ',
      'FAIL',
    ].join('\n');
    expect(parse(out).map((f) => [f.name, f.file, f.line, f.expected, f.actual])).toEqual([
      ['test_FindFunction_ShouldReturnTheIndexForItemsInList', 'test/TestProductionCode.c', 31, "'abc'", "'abd'"],
      ['test_FunctionWhichReturnsLocalVariable_ShouldReturnTheCurrentCounter', 'test/TestProductionCode.c', 44, null, null],
      ['test_Array', 'test/TestProductionCode2.c', 18, '3', '4'],
    ]);
    expect(parse(out)[0]!.message).toBe("Expected 'abc' Was 'abd'. Function returned the wrong item");
  });

  it('reads Unity’s values only where Unity wrote them', () => {
    expect(unityValues("Expected 'a. b' Was 'a. c'. note")).toEqual({ expected: "'a. b'", actual: "'a. c'" });
    expect(unityValues('Expected Non-NULL')).toEqual({ expected: null, actual: null });
    expect(unityValues('my note: Expected 1 Was 2')).toEqual({ expected: null, actual: null });
    expect(unityValues('Values Not Within Delta 1 Expected 5 Was 9')).toEqual({ expected: null, actual: null });
  });
});
