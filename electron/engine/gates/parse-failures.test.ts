// Tests for parseFailures: JUnit XML and TAP from real tool output, fallbacks, limits and garbage input.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractExpectedActual, MAX_FAILED_TESTS, parseFailures } from './parse-failures';

const corpus = (name: string): string =>
  fs.readFileSync(path.join(import.meta.dirname, '../runs/classify-corpus', name), 'utf8');

describe('parseFailures: JUnit XML', () => {
  it('reads a vitest report', () => {
    expect(parseFailures({ output: '', reportXml: corpus('junit-report.xml') })).toEqual([
      {
        name: 'src/math.test.ts > math > adds numbers',
        message: 'expected 6 to be 5 // Object.is equality',
        expected: '5',
        actual: '6',
        file: 'src/math.test.ts',
        line: 6,
      },
      {
        name: 'src/math.test.ts > math > parses a list',
        message: 'expected [ 1, 2, 3 ] to deeply equal [ 1, 2, 4 ]',
        expected: '[ 1, 2, 4 ]',
        actual: '[ 1, 2, 3 ]',
        file: 'src/math.test.ts',
        line: 12,
      },
    ]);
  });

  it('reads a pytest report, decoding character references in attributes', () => {
    const failures = parseFailures({ output: '', reportXml: corpus('pytest-report.xml') });
    expect(failures.map((f) => f.name)).toEqual([
      'tests.test_calc > test_add',
      'tests.test_calc > test_div',
      'tests.test_calc.TestStrings > test_join',
    ]);
    expect(failures[0]).toEqual({
      name: 'tests.test_calc > test_add',
      message: 'assert 6 == 5\n +  where 6 = add(2, 3)',
      expected: '5',
      actual: '6',
      file: 'tests/test_calc.py',
      line: 5,
    });
    expect(failures[1]).toMatchObject({ message: 'ZeroDivisionError: division by zero', file: 'tests/test_calc.py', line: 13 });
    expect(failures[2]).toMatchObject({ expected: "'a_b'", actual: "'a-b'", line: 18 });
  });

  it('finds testcases at any nesting, with <error>, attributes, CDATA, and skips passing and skipped cases', () => {
    const xml = `<?xml version="1.0"?>
<testsuites>
  <testsuite name="outer">
    <testsuite name="inner">
      <testsuite name="innermost">
        <testcase name="deep one" classname="pkg.Deep" file="src/deep.test.js" line="42">
          <failure message="Expected: 3&#10;Received: 4" type="AssertionError"/>
        </testcase>
      </testsuite>
      <testcase name="passes" classname="pkg.Ok"/>
      <testcase name="skipped" classname="pkg.Ok"><skipped/></testcase>
    </testsuite>
    <testcase name="errors out">
      <error type="TypeError"><![CDATA[TypeError: cannot read properties of undefined (reading 'id')
    at load (/repo/src/user.js:10:5)
    at Object.<anonymous> (/repo/node_modules/jest-circus/build/run.js:1:1)]]></error>
    </testcase>
    <testcase classname="com.acme.CalcTest" name="addsNumbers">
      <failure message="expected:&lt;5&gt; but was:&lt;6&gt;" type="java.lang.AssertionError">java.lang.AssertionError: expected:&lt;5&gt; but was:&lt;6&gt;
	at com.acme.CalcTest.addsNumbers(CalcTest.java:17)</failure>
    </testcase>
  </testsuite>
</testsuites>`;
    expect(parseFailures({ output: '', reportXml: xml })).toEqual([
      { name: 'pkg.Deep > deep one', message: 'Expected: 3\nReceived: 4', expected: '3', actual: '4', file: 'src/deep.test.js', line: 42 },
      {
        name: 'errors out',
        message: "TypeError: cannot read properties of undefined (reading 'id')",
        expected: null,
        actual: null,
        file: '/repo/src/user.js',
        line: 10,
      },
      {
        name: 'com.acme.CalcTest > addsNumbers',
        message: 'expected:<5> but was:<6>',
        expected: '5',
        actual: '6',
        file: 'CalcTest.java',
        line: 17,
      },
    ]);
  });

  it('accepts a lone <testsuite> root and an empty <failure/>', () => {
    const xml = '<testsuite name="s"><testcase name="a"><failure/></testcase><testcase name="b"/></testsuite>';
    expect(parseFailures({ output: '', reportXml: xml })).toEqual([
      { name: 'a', message: null, expected: null, actual: null, file: null, line: null },
    ]);
  });

  it('deduplicates a testcase reported twice', () => {
    const tc = '<testcase classname="a" name="b"><failure message="m"/></testcase>';
    const xml = `<testsuites><testsuite>${tc}${tc}</testsuite><testsuite>${tc}</testsuite></testsuites>`;
    expect(parseFailures({ output: '', reportXml: xml })).toHaveLength(1);
  });

  it('falls back to TAP in the output when the report is broken or has no failures', () => {
    const tap = 'TAP version 13\nnot ok 1 - from tap\n1..1\n';
    expect(parseFailures({ output: tap, reportXml: '<testsuites><testsuite><testcase name="x"><fail' })).toMatchObject([
      { name: 'from tap' },
    ]);
    expect(parseFailures({ output: tap, reportXml: '<testsuites><testsuite><testcase name="ok"/></testsuite></testsuites>' })).toMatchObject([
      { name: 'from tap' },
    ]);
  });
});

describe('parseFailures: TAP', () => {
  it('reads node:test output behind npm noise, keeping leaf tests and YAML diagnostics', () => {
    expect(parseFailures({ output: corpus('node-test-tap.txt') })).toEqual([
      {
        name: 'math > adds numbers',
        message: 'Expected values to be strictly equal:\n\n6 !== 5',
        expected: '5',
        actual: '6',
        file: '/home/dev/calc-node/math.test.js',
        line: 7,
      },
      {
        name: 'math > subtracts',
        message: expect.stringContaining('Expected values to be strictly deep-equal:') as unknown as string,
        expected: '{"v":3}',
        actual: '{"v":2}',
        file: '/home/dev/calc-node/math.test.js',
        line: 10,
      },
      {
        name: 'top level fails',
        message: 'one minus one\n\n0 !== 1',
        expected: '1',
        actual: '0',
        file: '/home/dev/calc-node/math.test.js',
        line: 17,
      },
    ]);
  });

  it('reads node-tap diagnostics (wanted/found/at) in nested subtests', () => {
    const tap = `TAP version 14
# Subtest: test/add.js
    # Subtest: add
        1..2
        ok 1 - adds positives
        not ok 2 - should be equal
          ---
          found: 6
          wanted: 5
          at:
            fileName: test/add.js
            lineNumber: 12
            columnNumber: 5
          stack: |
            Test.<anonymous> (test/add.js:12:5)
          ...

    not ok 1 - add # time=4.1ms
    1..1
not ok 1 - test/add.js # time=310ms
1..1
`;
    expect(parseFailures({ output: tap })).toEqual([
      { name: 'test/add.js > add > should be equal', message: null, expected: '5', actual: '6', file: 'test/add.js', line: 12 },
    ]);
  });

  it('reads the older at: {file, line} form and expected/actual given only in the message', () => {
    const tap = `TAP version 13
not ok 1 - compares
  ---
  message: "expected 'a' to equal 'b'"
  at:
    line: 7
    column: 3
    file: test/str.js
  ...
1..1
`;
    expect(parseFailures({ output: tap })).toEqual([
      { name: 'compares', message: "expected 'a' to equal 'b'", expected: "'b'", actual: "'a'", file: 'test/str.js', line: 7 },
    ]);
  });

  it('keeps a null expected value as "null"', () => {
    const tap = 'not ok 1 - is null\n  ---\n  expected: null\n  actual: 0\n  ...\n1..1\n';
    expect(parseFailures({ output: tap })).toMatchObject([{ expected: 'null', actual: '0' }]);
  });

  it('ignores TODO and SKIP failures', () => {
    const tap = 'TAP version 13\nnot ok 1 - flaky # TODO fix later\nnot ok 2 - windows only # SKIP\nnot ok 3 - real\n1..3\n';
    expect(parseFailures({ output: tap }).map((f) => f.name)).toEqual(['real']);
  });

  it('falls back to "not ok" lines the parser stops reading, e.g. after Bail out!', () => {
    const out = 'TAP version 13\nok 1 - connects\nBail out! database unavailable\nnot ok 2 - saves user\nnot ok 2 - saves user\nnot ok 3 - lists users # TODO\n';
    expect(parseFailures({ output: out })).toEqual([
      { name: 'saves user', message: null, expected: null, actual: null, file: null, line: null },
    ]);
  });

  it('returns nothing for passing TAP and for output without TAP', () => {
    expect(parseFailures({ output: 'TAP version 13\nok 1 - a\nok 2 - b\n1..2\n' })).toEqual([]);
    expect(parseFailures({ output: corpus('tsc.txt') })).toEqual([]);
    expect(parseFailures({ output: corpus('go-test-fail.txt') })).toEqual([]);
  });
});

describe('parseFailures: limits and garbage', () => {
  it(`caps at ${MAX_FAILED_TESTS} entries`, () => {
    const tap = Array.from({ length: 300 }, (_, i) => `not ok ${i + 1} - test ${i + 1}`).join('\n') + '\n1..300\n';
    const fromTap = parseFailures({ output: tap });
    expect(fromTap).toHaveLength(200);
    expect(fromTap[199]!.name).toBe('test 200');

    const cases = Array.from({ length: 300 }, (_, i) => `<testcase name="t${i}"><failure message="m"/></testcase>`).join('');
    expect(parseFailures({ output: '', reportXml: `<testsuite>${cases}</testsuite>` })).toHaveLength(200);
  });

  it('never throws on garbage', () => {
    const rand = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)).toString('latin1');
    for (const input of [
      { output: '' },
      { output: rand, reportXml: rand },
      { output: 'not ok', reportXml: '<' },
      { output: 'ok\n  ---\n  : : :\n  [[[\n  ...\nnot ok 1 - x\n  ---\n  at: {{{\n  ...\n', reportXml: '<<<>>>' },
      { output: '\u0000'.repeat(100), reportXml: '<testsuite><testcase name="a"><failure>' },
      { output: 'ok 1\n'.repeat(10), reportXml: '<!DOCTYPE x [<!ENTITY a "aaaa">]><testsuite>&a;</testsuite>' },
    ]) {
      expect(() => parseFailures(input)).not.toThrow();
      expect(Array.isArray(parseFailures(input))).toBe(true);
    }
  });
});

describe('extractExpectedActual', () => {
  it.each([
    ['jest', 'expect(received).toBe(expected)\n\n    Expected: 30\n    Received: 25', '30', '25'],
    ['chai / vitest', 'AssertionError: expected 6 to be 5 // Object.is equality', '5', '6'],
    ['chai deep equal', 'expected { a: 1 } to deeply equal { a: 2 }', '{ a: 2 }', '{ a: 1 }'],
    ['node assert', 'Expected values to be strictly equal:\n\n6 !== 5\n', '5', '6'],
    ['pytest', 'E       assert 6 == 5\nE        +  where 6 = add(2, 3)', '5', '6'],
    ['unittest', 'AssertionError: 6 != 5', '5', '6'],
    ['rust', "assertion `left == right` failed\n  left: 6\n right: 5", '5', '6'],
    ['rust (older)', 'assertion failed: `(left == right)`\n  left: `6`,\n right: `5`', '5', '6'],
    ['go', 'math_test.go:9: Add(2, 3) = 6; want 5', '5', '6'],
    ['go got/want', 'got 6, want 5', '5', '6'],
    ['testify', 'Error:      \tNot equal: \n\t            \texpected: 5\n\t            \tactual  : 6', '5', '6'],
    ['junit4', 'expected:<5> but was:<6>', '5', '6'],
    ['diff only', '- Expected\n+ Received\n\n- 5\n+ 6', '5', '6'],
  ])('%s', (_label, text, expected, actual) => {
    expect(extractExpectedActual(text)).toEqual({ expected, actual });
  });

  it('returns nulls when there is nothing to find', () => {
    expect(extractExpectedActual('TypeError: x is not a function')).toEqual({ expected: null, actual: null });
  });
});
