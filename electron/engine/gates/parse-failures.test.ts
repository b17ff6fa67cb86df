// Tests for parseFailures: JUnit XML, Jest/Vitest JSON, go test -json, TAP and GUT from real tool output, priority, fallbacks, limits and garbage input.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractExpectedActual, goTestJsonText, MAX_FAILED_TESTS, parseFailures, parseGoTestJson, parseGut } from './parse-failures';

const corpus = (name: string): string => fs.readFileSync(path.join(import.meta.dirname, '../failures/classify-corpus', name), 'utf8');

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
    expect(failures.map((f) => f.name)).toEqual(['tests.test_calc > test_add', 'tests.test_calc > test_div', 'tests.test_calc.TestStrings > test_join']);
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
    expect(parseFailures({ output: '', reportXml: xml })).toEqual([{ name: 'a', message: null, expected: null, actual: null, file: null, line: null }]);
  });

  it('deduplicates a testcase reported twice', () => {
    const tc = '<testcase classname="a" name="b"><failure message="m"/></testcase>';
    const xml = `<testsuites><testsuite>${tc}${tc}</testsuite><testsuite>${tc}</testsuite></testsuites>`;
    expect(parseFailures({ output: '', reportXml: xml })).toHaveLength(1);
  });

  it('falls back to TAP in the output when the report is broken or has no failures', () => {
    const tap = 'TAP version 13\nnot ok 1 - from tap\n1..1\n';
    expect(parseFailures({ output: tap, reportXml: '<testsuites><testsuite><testcase name="x"><fail' })).toMatchObject([{ name: 'from tap' }]);
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
    const out =
      'TAP version 13\nok 1 - connects\nBail out! database unavailable\nnot ok 2 - saves user\nnot ok 2 - saves user\nnot ok 3 - lists users # TODO\n';
    expect(parseFailures({ output: out })).toEqual([{ name: 'saves user', message: null, expected: null, actual: null, file: null, line: null }]);
  });

  it('returns nothing for passing TAP and for output in no known format', () => {
    expect(parseFailures({ output: 'TAP version 13\nok 1 - a\nok 2 - b\n1..2\n' })).toEqual([]);
    expect(parseFailures({ output: 'building…\nsomething went wrong\nexit status 1\n' })).toEqual([]);
  });

  it('reads compiler errors and go test text as structured items rather than nothing', () => {
    expect(parseFailures({ output: corpus('tsc.txt') }).map((f) => [f.kind, f.name])).toEqual([
      ['compile', 'src/index.ts:2:24 TS2307'],
      ['compile', 'src/math.ts:2:9 TS2322'],
      ['compile', 'src/math.ts:7:53 TS2551'],
    ]);
    expect(parseFailures({ output: corpus('go-test-fail.txt') }).map((f) => f.name)).toEqual([
      'example.com/calc > TestAdd',
      'example.com/calc > TestParseList/with_spaces',
    ]);
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
    ['rust', 'assertion `left == right` failed\n  left: 6\n right: 5', '5', '6'],
    ['rust (older)', 'assertion failed: `(left == right)`\n  left: `6`,\n right: `5`', '5', '6'],
    ['go', 'math_test.go:9: Add(2, 3) = 6; want 5', '5', '6'],
    ['go got/want', 'got 6, want 5', '5', '6'],
    ['testify', 'Error:      \tNot equal: \n\t            \texpected: 5\n\t            \tactual  : 6', '5', '6'],
    ['junit4', 'expected:<5> but was:<6>', '5', '6'],
    ['diff only', '- Expected\n+ Received\n\n- 5\n+ 6', '5', '6'],
    ['gut assert_eq', '[0] expected to equal [100]:  player starts healthy', '100', '0'],
    ['gut strings', '["Bob"] expected to equal ["Alice"]', '"Alice"', '"Bob"'],
    ['gut arrays', '[[1, 2]] expected to equal [[1, 3]]', '[1, 3]', '[1, 2]'],
    ['gut comparison', '[0.51] expected to be > than [999.0]:  waits', '999.0', '0.51'],
    ['hand-written', 'test_player_health: Expected 100, got 0', '100', '0'],
    ['hand-written "but got"', 'expected 5 but got 6', '5', '6'],
  ])('%s', (_label, text, expected, actual) => {
    expect(extractExpectedActual(text)).toEqual({ expected, actual });
  });

  it('returns nulls when there is nothing to find', () => {
    expect(extractExpectedActual('TypeError: x is not a function')).toEqual({ expected: null, actual: null });
  });
});

describe('parseFailures: Jest and Vitest JSON reports', () => {
  it('reads a vitest --reporter=json report; the assertion frame beats the declaration `location`', () => {
    expect(parseFailures({ output: '', reportXml: corpus('vitest-report.json') })).toEqual([
      {
        name: 'math > adds numbers',
        message: 'AssertionError: expected 6 to be 5 // Object.is equality',
        expected: '5',
        actual: '6',
        file: '/home/dev/calc-vitest/src/math.test.ts',
        line: 6,
      },
      {
        name: 'math > parses a list',
        message: 'AssertionError: expected [ 1, 2, 3 ] to deeply equal [ 1, 2, 4 ]',
        expected: '[ 1, 2, 4 ]',
        actual: '[ 1, 2, 3 ]',
        file: '/home/dev/calc-vitest/src/math.test.ts',
        line: 12,
      },
    ]);
  });

  it('reads a jest --json report', () => {
    expect(parseFailures({ output: '', reportXml: corpus('jest-report.json') })).toEqual([
      {
        name: 'cart > adds item totals',
        message: 'Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 30\nReceived: 25',
        expected: '30',
        actual: '25',
        file: '/home/dev/shop/src/cart.test.js',
        line: 12,
      },
      {
        name: 'cart > applies a discount code',
        message: 'TypeError: cart.applyDiscount is not a function',
        expected: null,
        actual: null,
        file: '/home/dev/shop/src/cart.test.js',
        line: 17,
      },
    ]);
  });

  it("takes expected and actual from jest's failureDetails when the message is only a diff", () => {
    const diff =
      'Error: expect(received).toEqual(expected) // deep equality\n\n- Expected  - 1\n+ Received  + 1\n\n  Object {\n-   "hp": 100,\n+   "hp": 0,\n  }\n    at Object.toEqual (/repo/src/player.test.js:9:22)';
    const report = JSON.stringify({
      testResults: [
        {
          name: '/repo/src/player.test.js',
          status: 'failed',
          assertionResults: [
            {
              ancestorTitles: ['player'],
              title: 'starts healthy',
              status: 'failed',
              failureMessages: [diff],
              failureDetails: [{ matcherResult: { actual: { hp: 0 }, expected: { hp: 100 }, name: 'toEqual', pass: false } }],
            },
          ],
        },
      ],
    });
    expect(parseFailures({ output: '', reportXml: report })).toMatchObject([
      { name: 'player > starts healthy', expected: '{"hp":100}', actual: '{"hp":0}', file: '/repo/src/player.test.js', line: 9 },
    ]);
  });

  it('uses `location` when no stack frame is in the test file, and fullName when there is no title', () => {
    const report = JSON.stringify({
      testResults: [
        {
          name: '/repo/src/a.test.ts',
          status: 'failed',
          assertionResults: [
            {
              fullName: 'a works',
              status: 'failed',
              location: { line: 4, column: 3 },
              failureMessages: ['Error: boom\n    at /repo/node_modules/lib/x.js:1:1'],
            },
            { title: 'skipped one', status: 'skipped', failureMessages: [] },
          ],
        },
      ],
    });
    expect(parseFailures({ output: '', reportXml: report })).toEqual([
      { name: 'a works', message: 'Error: boom', expected: null, actual: null, file: '/repo/src/a.test.ts', line: 4 },
    ]);
  });

  it('reports a test file that failed to run as one failure', () => {
    const report = JSON.stringify({
      testResults: [
        {
          name: '/repo/src/b.test.js',
          status: 'failed',
          assertionResults: [],
          message:
            "  ● Test suite failed to run\n\n    Cannot find module './missing' from 'src/b.test.js'\n\n    > 1 | import { x } from './missing';\n      at Resolver._throwModNotFoundError (/repo/node_modules/jest-resolve/build/resolver.js:427:11)\n      at Object.<anonymous> (/repo/src/b.test.js:1:1)",
        },
      ],
    });
    expect(parseFailures({ output: '', reportXml: report })).toEqual([
      {
        name: '/repo/src/b.test.js',
        message: "Cannot find module './missing' from 'src/b.test.js'\n\n    > 1 | import { x } from './missing';",
        expected: null,
        actual: null,
        file: '/repo/src/b.test.js',
        line: 1,
      },
    ]);
  });

  it('tells JSON from XML by content, and falls back to the output when the JSON is cut short', () => {
    const json = corpus('vitest-report.json');
    expect(parseFailures({ output: '', reportXml: `\uFEFF  ${json}` })).toHaveLength(2);
    const tap = 'TAP version 13\nnot ok 1 - from tap\n1..1\n';
    expect(parseFailures({ output: tap, reportXml: json.slice(0, 500) })).toMatchObject([{ name: 'from tap' }]);
    expect(parseFailures({ output: tap, reportXml: '{"testResults": []}' })).toMatchObject([{ name: 'from tap' }]);
  });

  it('finds the JSON a reporter printed on stdout after npm’s banner', () => {
    const out = `\n> calc@1.0.0 test\n> vitest run --reporter=json\n\n${corpus('vitest-report.json')}`;
    expect(parseFailures({ output: out }).map((f) => f.name)).toEqual(['math > adds numbers', 'math > parses a list']);
  });
});

describe('parseFailures: go test -json', () => {
  it('reads the event stream: leaf subtests only, with what each test logged', () => {
    expect(parseFailures({ output: corpus('go-test-json.txt') })).toEqual([
      { name: 'example.com/calc > TestAdd', message: 'math_test.go:9: Add(2, 3) = 6; want 5', expected: '5', actual: '6', file: 'math_test.go', line: 9 },
      {
        name: 'example.com/calc > TestParseList/with_spaces',
        message: 'math_test.go:31: ParseList("1, 2") returned error: strconv.Atoi: parsing " 2": invalid syntax',
        expected: null,
        actual: null,
        file: 'math_test.go',
        line: 31,
      },
    ]);
  });

  it('reads testify output and cuts a panic before its goroutine dump', () => {
    const ev = (test: string, output: string): string => JSON.stringify({ Action: 'output', Package: 'example.com/shop', Test: test, Output: output });
    const stream = [
      ev('TestTotal', '=== RUN   TestTotal\n'),
      ev('TestTotal', '    cart_test.go:15: \n'),
      ev('TestTotal', '        \tError Trace:\t/home/dev/shop/cart_test.go:15\n'),
      ev('TestTotal', '        \tError:      \tNot equal: \n'),
      ev('TestTotal', '        \t            \texpected: 30\n'),
      ev('TestTotal', '        \t            \tactual  : 25\n'),
      ev('TestTotal', '        \tTest:       \tTestTotal\n'),
      ev('TestTotal', '--- FAIL: TestTotal (0.00s)\n'),
      JSON.stringify({ Action: 'fail', Package: 'example.com/shop', Test: 'TestTotal', Elapsed: 0 }),
      ev('TestIndex', '=== RUN   TestIndex\n'),
      ev('TestIndex', '--- FAIL: TestIndex (0.00s)\n'),
      ev('TestIndex', 'panic: runtime error: index out of range [3] with length 3 [recovered]\n'),
      ev('TestIndex', '\tpanic: runtime error: index out of range [3] with length 3\n'),
      ev('TestIndex', '\n'),
      ev('TestIndex', 'goroutine 7 [running]:\n'),
      ev('TestIndex', 'testing.tRunner.func1.2({0x5170a0, 0xc000018150})\n'),
      ev('TestIndex', '\t/usr/local/go/src/testing/testing.go:1631 +0x24a\n'),
      ev('TestIndex', 'example.com/shop.Item(...)\n'),
      ev('TestIndex', '\t/home/dev/shop/cart.go:22 +0x1d\n'),
      JSON.stringify({ Action: 'fail', Package: 'example.com/shop', Test: 'TestIndex', Elapsed: 0 }),
    ].join('\n');
    const [total, index] = parseGoTestJson(stream);
    expect(total).toMatchObject({ name: 'example.com/shop > TestTotal', expected: '30', actual: '25', file: 'cart_test.go', line: 15 });
    expect(index!.message).toBe(
      'panic: runtime error: index out of range [3] with length 3 [recovered]\n\tpanic: runtime error: index out of range [3] with length 3',
    );
    expect(index!.message).not.toContain('goroutine');
  });

  it('reads a go test -json report file, and prefers the stream to TAP-like lines', () => {
    expect(parseFailures({ output: 'not ok 1 - unrelated\n', reportXml: corpus('go-test-json.txt') })).toHaveLength(2);
    expect(parseFailures({ output: `not ok 1 - unrelated\n${corpus('go-test-json.txt')}` }).map((f) => f.name)).toEqual([
      'example.com/calc > TestAdd',
      'example.com/calc > TestParseList/with_spaces',
    ]);
  });

  it('goTestJsonText turns the stream back into the text go test prints, keeping other lines', () => {
    const text = goTestJsonText(`# stderr line\n${corpus('go-test-json.txt')}`)!;
    expect(text).toContain('# stderr line\n=== RUN   TestAdd\n    math_test.go:9: Add(2, 3) = 6; want 5\n--- FAIL: TestAdd (0.00s)\n');
    expect(text).toContain('FAIL\texample.com/calc\t0.003s\n');
    expect(goTestJsonText(corpus('go-test-fail.txt'))).toBeNull();
    expect(goTestJsonText('{"Action":"fail"}\n{"not":"go"}\n')).toBeNull();
  });
});

describe('parseFailures: GUT (Godot)', () => {
  it('reads the Run Summary: script, test, [Failed] text, "at line"; pending tests are not failures', () => {
    expect(parseFailures({ output: corpus('gut-fail.txt') })).toEqual([
      {
        name: 'test/unit/test_player.gd > test_player_health',
        message: '[0] expected to equal [100]:  Expected 100, got 0',
        expected: '100',
        actual: '0',
        file: 'test/unit/test_player.gd',
        line: 14,
      },
      {
        name: 'test/unit/test_player.gd > test_take_damage',
        message: 'Expected object <CharacterBody2D#30031266998> to have emitted signal [health_changed]:  Signal not emitted',
        expected: null,
        actual: null,
        file: 'test/unit/test_player.gd',
        line: 23,
      },
    ]);
  });

  it('reads the per-test lines of a run cut short (no summary), Godot 3 headers, inner classes and several failures per test', () => {
    const out = `/-----------------------------------------
Running Script res://test/unit/test_inventory.gd
-----------------------------------------/
* test_stack_limit
    [Failed]:  [10] expected to equal [99]:
          at line 40
    [Failed]:  Stack overflowed
      by 3 items
          at line 41
res://test/unit/test_inventory.gd.TestWeight
* test_total_weight
    [Pending]:  not written
* test_heavy_items
    [Failed]:  Expected 12.5, got 0
`;
    expect(parseGut(out)).toEqual([
      {
        name: 'test/unit/test_inventory.gd > test_stack_limit',
        message: '[10] expected to equal [99]:\nStack overflowed\nby 3 items',
        expected: '99',
        actual: '10',
        file: 'test/unit/test_inventory.gd',
        line: 40,
      },
      {
        name: 'test/unit/test_inventory.gd > TestWeight > test_heavy_items',
        message: 'Expected 12.5, got 0',
        expected: '12.5',
        actual: '0',
        file: 'test/unit/test_inventory.gd',
        line: null,
      },
    ]);
  });

  it('prefers the Run Summary to run lines whose test header was cut out of the kept output', () => {
    const cut =
      '\n[… 2.1 MB (2201034 bytes) elided: showing the first 64 KB and the last 64 KB …]\n    [Failed]:  [3] expected to equal [4]\n          at line 9\n';
    const summary = corpus('gut-fail.txt').slice(corpus('gut-fail.txt').indexOf('=============================================='));
    // Read line by line, the orphan [Failed] after the cut would be pinned on test_player_health, which did not say it.
    expect(parseGut(`res://test/unit/test_player.gd\n* test_player_health${cut}${summary}`).map((f) => [f.name, f.message, f.line])).toEqual([
      ['test/unit/test_player.gd > test_player_health', '[0] expected to equal [100]:  Expected 100, got 0', 14],
      [
        'test/unit/test_player.gd > test_take_damage',
        'Expected object <CharacterBody2D#30031266998> to have emitted signal [health_changed]:  Signal not emitted',
        23,
      ],
    ]);
  });

  it('is the last resort: TAP in the same output wins', () => {
    const out = `not ok 1 - from tap\n1..1\n${corpus('gut-fail.txt')}`;
    expect(parseFailures({ output: out }).map((f) => f.name)).toEqual(['from tap']);
    expect(parseGut('no gut here\n[Passed]\n')).toEqual([]);
  });
});

describe('parseFailures: garbage in structured formats', () => {
  it('never throws on odd JSON or test2json lines', () => {
    for (const reportXml of [
      '{',
      '[1,2,3]',
      'null',
      '{"testResults": 5}',
      '{"testResults":[null, 7, {"assertionResults":[null, {"status":"failed"}, {"status":"failed","ancestorTitles":[1,null],"title":5,"failureMessages":[null,{}],"failureDetails":[null,{"matcherResult":null}],"location":"x"}]}]}',
      '{"testResults":[{"status":"failed","name":42,"message":{}}]}',
    ]) {
      expect(() => parseFailures({ output: '', reportXml })).not.toThrow();
    }
    const odd = [
      '{"Action":"fail","Package":"p","Test":5}',
      '{"Action":"output","Package":"p","Test":"T","Output":7}',
      '{"Action":"fail","Package":"p","Test":"T"}',
      '{"Action":"fail","Package":"p","Test":"T"}',
      '{"Action": "fail"',
    ].join('\n');
    expect(parseFailures({ output: odd })).toEqual([{ name: 'p > T', message: null, expected: null, actual: null, file: null, line: null }]);
    expect(parseFailures({ output: 7 as unknown as string, reportXml: 9 as unknown as string })).toEqual([]);
  });

  it(`caps a huge go -json stream at ${MAX_FAILED_TESTS}`, () => {
    const lines = Array.from({ length: 250 }, (_, i) => JSON.stringify({ Action: 'fail', Package: 'p', Test: `T${i}` }));
    expect(parseFailures({ output: lines.join('\n') })).toHaveLength(MAX_FAILED_TESTS);
  });
});

describe('parseFailures: gaps the fourth held-out batch found', () => {
  const held4 = (name: string): string => fs.readFileSync(path.join(import.meta.dirname, 'corpus/held4', name), 'utf8');
  const byName = (output: string, name: string) => parseFailures({ output }).find((f) => f.name === name);

  it('names a unittest subTest failure with its parameters and finds its line', () => {
    expect(byName(held4('unittest.txt'), "tests.test_report.RenderTest.test_money (raw='1,5€')")).toMatchObject({
      file: expect.stringMatching(/tests\/test_report\.py$/),
      line: 13,
    });
  });

  it("reads mocha's one-line diff when the message holds no pair (assert.ok)", () => {
    expect(byName(held4('mocha.txt'), 'Queue > is not empty')).toMatchObject({ expected: 'true', actual: 'false', line: 26 });
    // The message's pair still wins, quotes and all.
    expect(byName(held4('mocha.txt'), 'Queue > #pop() > returns the oldest item')).toMatchObject({ expected: "'a'", actual: "'b'" });
  });

  it('takes a RegExp that node:test TAP leaves empty from the message, never "null"', () => {
    const f = parseFailures({ output: held4('node-tap.txt') }).find((x) => x.name.endsWith('formats euros with the € sign'));
    expect(f).toMatchObject({ expected: '/€/', actual: "'$5.00'" });
    expect(parseFailures({ output: 'TAP version 13\nnot ok 1 - t\n  ---\n  expected: ~\n  actual: 3\n  ...\n1..1\n' })[0]).toMatchObject({
      expected: 'null',
      actual: '3',
    });
  });

  it('reads the values under an assertion message in pytest --tb=line', () => {
    expect(byName(held4('pytest-line.txt'), 'tests/test_inventory.py::TestRestock::test_message')).toMatchObject({ expected: '2', actual: '1', line: 18 });
  });

  it('drops the word "object" of "to match object" from the expected value', () => {
    expect(extractExpectedActual('AssertionError: expected { a: 3 } to match object { a: 4 }')).toEqual({ expected: '{ a: 4 }', actual: '{ a: 3 }' });
  });
});

describe("parseFailures: seed 002's ❌ lines and names that carry their values", () => {
  it('reads "❌ name: message" lines with expected and got (seed 002\'s sample output)', () => {
    const out = fs.readFileSync(path.join(import.meta.dirname, '../failures/classify-corpus/seed002-test-failures.txt'), 'utf8');
    expect(parseFailures({ output: out })).toEqual([
      { name: 'test_player_health', message: 'Expected 100, got 0', expected: '100', actual: '0', file: null, line: null },
      { name: 'test_take_damage', message: 'Signal not emitted', expected: null, actual: null, file: null, line: null },
    ]);
  });

  it('splits a TAP test point "name: Expected X, got Y" into the name and its values', () => {
    for (const output of [
      'TAP version 13\nnot ok 1 - test_player_health: Expected 100, got -1\n1..1\n',
      'noise\nnot ok 1 - test_player_health: Expected 100, got -1\n',
    ]) {
      expect(parseFailures({ output })).toEqual([
        { name: 'test_player_health', message: 'Expected 100, got -1', expected: '100', actual: '-1', file: null, line: null },
      ]);
    }
  });

  it('keeps a colon that is part of a name, and a ❌ that is a summary rather than a test', () => {
    expect(parseFailures({ output: 'TAP version 13\nnot ok 1 - parse: handles spaces\n1..1\n' })[0]!.name).toBe('parse: handles spaces');
    expect(parseFailures({ output: '❌ 2 tests failed\n' })).toEqual([]);
  });
});
