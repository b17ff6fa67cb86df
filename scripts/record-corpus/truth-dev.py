#!/usr/bin/env python3
# Writes the hand-made truth files of the development cases (read off each recorded output and the project's source,
# never from a parser's result). Shared failures are typed once and reused by the cases that print them.
import json, os, sys

OUT = os.path.join(os.path.dirname(__file__), '../../electron/engine/gates/corpus')

def t(name, expected=None, actual=None, file=None, line=None):
    return {'name': name, 'expected': expected, 'actual': actual, 'file': file, 'line': line}

def c(file, line, code=None):
    return {'kind': 'compile', 'file': file, 'line': line, 'code': code}

def write(case, cls, failures, note=None, held_out=False):
    doc = {'class': cls, 'failures': failures}
    if note: doc['note'] = note
    if held_out: doc['heldOut'] = True
    with open(os.path.join(OUT, case + '.truth.json'), 'w') as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write('\n')

# pytest: tests/test_calc.py (assert x == y puts the actual value on the left)
PY = 'tests/test_calc.py'
def pytest_all(values=True, lines=True, div=True, words=True):
    v = lambda e, a, ok=True: (e, a) if (values and ok) else (None, None)
    L = lambda n: n if lines else None
    return [
        t('tests/test_calc.py::test_add', *v('5', '6'), PY, L(7)),
        t('tests/test_calc.py::test_div_message', *v('3.5', '3', div), PY, L(16)),
        t('tests/test_calc.py::test_add_many[1-1-2]', *v('2', '3'), PY, L(21)),
        t('tests/test_calc.py::test_add_many[2-2-4]', *v('4', '5'), PY, L(21)),
        t('tests/test_calc.py::test_words', *v("['a', 'b']", "['a', '', 'b']", words), PY, L(25)),
        t('tests/test_calc.py::test_save_refuses_root', None, None, PY, L(29)),
        t('tests/test_calc.py::test_raises_error', None, None, PY, L(34)),
    ]
for case in ['default', 'quiet', 'tb-short', 'tb-long', 'tb-native', 'color', 'verbose']:
    write(f'pytest/{case}', 'test_failure', pytest_all(),
          'test_save_refuses_root asserts that PermissionError is raised: a test failure, not a permission error')
write('pytest/crlf-default', 'test_failure', pytest_all(), 'pytest/default.txt with its line endings converted to CRLF')
write('pytest/junit', 'test_failure', pytest_all(), 'with the JUnit XML report pytest wrote (--junitxml)')
write('pytest/tb-line', 'test_failure', pytest_all(),
      '--tb=line prints test_div_message\'s values on the line under its message ("assert 3 == 3.5")')
write('pytest/summary-ra', 'test_failure', pytest_all(lines=False, div=False, words=False),
      '--tb=no -rA: no line numbers; the summary clips test_div_message and test_words with "...", so their values are not printed whole')
write('pytest/collect-missing-module', 'compilation_error', [c('tests/test_report.py', 1, 'ModuleNotFoundError')],
      'the test imports a module (report) the agent has not written yet')
write('pytest/collect-syntax-error', 'compilation_error', [c('shape.py', 1, 'SyntaxError')])
write('python/syntax-error', 'compilation_error', [c('main.py', 11, 'SyntaxError')])

UT = 'tests/test_stack.py'
unittest_all = [
    t('tests.test_stack.StackTest.test_error', None, None, UT, 27),
    t('tests.test_stack.StackTest.test_pop_returns_last', '2', '1', UT, 11),
    t('tests.test_stack.StackTest.test_size', '1', '2', UT, 16),
    t('tests.test_stack.StackTest.test_truthy', None, None, UT, 24),
]
write('unittest/default', 'test_failure', unittest_all)
write('unittest/verbose', 'test_failure', unittest_all)
write('unittest/import-missing', 'compilation_error', [c('tests/test_parser.py', 3, 'ModuleNotFoundError')],
      'the test imports parser_utils, which the agent has not written yet')

JT = '__tests__/cart.test.js'
def jest_all(json_values=False):
    return [
        t('cart › adds item totals', '7', '5', JT, 5),
        t('cart › applies a discount code', '0.5', '0.4', JT, 9),
        # The text reporters print this one as a multi-line diff; the JSON report keeps both arrays.
        t('cart › splits tags', '["a","b"]' if json_values else None, '["a"," b"]' if json_values else None, JT, 13),
        t('throws on bad input', '"items required"', '"Cannot read properties of null (reading \'reduce\')"', JT, 22),
    ]
for case in ['default', 'color', 'npm-test']:
    write(f'jest/{case}', 'test_failure', jest_all())
write('jest/crlf-default', 'test_failure', jest_all(), 'jest/default.txt with its line endings converted to CRLF')
write('jest/json', 'test_failure', jest_all(True), '--json on stdout, the default reporter on stderr')
write('jest/json-file', 'test_failure', jest_all(True), 'with the --json --outputFile report')
write('jest/junit', 'test_failure', jest_all(), 'with the jest-junit report')

VT = 'test/list.test.ts'
vitest_all = [
    t('list > adds numbers', '5', '6', VT, 6),
    t('list > parses a list', "[ 'a', 'b' ]", "[ 'a', ' b' ]", VT, 10),
    t('list > builds a user', "{ name: 'ann', admin: false, …(1) }", "{ name: 'ann', admin: true, …(1) }", VT, 14),
    t('top-level failure', '2', '3', VT, 23),
]
for case in ['default', 'color', 'json', 'json-file', 'junit', 'verbose']:
    write(f'vitest/{case}', 'test_failure', vitest_all)

MT = 'test/cart.spec.js'
write('mocha/spec', 'test_failure', [
    t('cart > adds item totals', '6', '5', MT, 6),
    t('cart > applies a discount code', '0.5', '0.4', MT, 10),
    t('cart > tags > splits tags', None, None, MT, 15),
], 'splits tags is a multi-line diff, not a pair of values')
write('mocha/color', 'test_failure', json.load(open(os.path.join(OUT, 'mocha/spec.truth.json')))['failures'])
write('mocha/tap', 'test_failure', [
    t('cart adds item totals', '6', '5', MT, 6),
    t('cart applies a discount code', None, None, MT, 10),
    t('cart tags splits tags', None, None, MT, 15),
], "mocha's TAP reporter prints no diff: only the message")

NT = 'test/cart.test.js'
node_all = [
    t('adds item totals', '6', '5', NT, 6),
    t('applies a discount code', '0.5', '0.4', NT, 10),
    t('tags > splits tags', "[ 'a', 'b' ]", "[ 'a', ' b' ]", NT, 15),
    t('rejects null', 'true', 'false', NT, 24),
]
for case in ['spec', 'color', 'tap']:
    write(f'node-test/{case}', 'test_failure', node_all)

GT = 'calc_test.go'
go_all = [
    t('example.com/calc > TestAdd', '5', '6', GT, 10),
    t('example.com/calc > TestParseList/with_spaces', '["a" "b"]', '["a" " b"]', GT, 27),
    t('example.com/calc > TestGreet', '"Hello, ann"', '"Hello ann"', GT, 37),
]
for case in ['test', 'test-verbose', 'test-json']:
    write(f'go/{case}', 'test_failure', go_all)
write('go/crlf-test', 'test_failure', go_all, 'go/test.txt with its line endings converted to CRLF')
write('go/panic', 'test_failure', [t('example.com/calc > TestAt', None, None, 'index_test.go', 7)],
      'the panic is in index.go:3; the line in the test is index_test.go:7 (its frame in the goroutine dump)')
go_build = [c('calc.go', 6), c('calc.go', 7)]
write('go/build-error', 'compilation_error', go_build)
write('go/test-build-error', 'compilation_error', go_build)
write('go/vet', 'compilation_error', [c('fmt.go', 6)])
write('go/missing-local-package', 'compilation_error', [c('main.go', 3)],
      'imports example.com/calc/internal/format, a package of this module not written yet')

RT = 'src/lib.rs'
cargo_all = [
    t('tests::adds_numbers', '5', '6', RT, 19),
    t('tests::checks_positive', None, None, RT, 34),
    t('tests::first_of_empty', None, None, RT, 29),
    t('tests::parses_list', '["a", "b"]', '["a", " b"]', RT, 24),
]
for case in ['test', 'test-color']:
    write(f'cargo/{case}', 'test_failure', cargo_all,
          'first_of_empty panics in first() at src/lib.rs:10; the test line is 29 (the backtrace frame of the test)')
write('cargo/crlf-test', 'test_failure', cargo_all, 'cargo/test.txt with its line endings converted to CRLF')
write('cargo/build-error', 'compilation_error', [c(RT, 2, 'E0308'), c(RT, 3, 'E0425')])

write('c/gcc', 'compilation_error', [c('main.c', 4)], 'the implicit declaration of squre is a warning, not an error')
write('java/javac', 'compilation_error', [c('Shop.java', 5)])
JV = 'CalcTest.java'
junit5 = [
    t('CalcTest.addsNumbers', '5', '6', JV, 8),
    t('CalcTest.greets', 'Hello, ann', 'Hello ann', JV, 13),
    t('CalcTest.isPositive', 'true', 'false', JV, 23),
]
write('java/junit5-console', 'test_failure', junit5, 'with the JUnit XML (Surefire format) the console launcher wrote')
write('ts/tsc', 'compilation_error', [c('src/index.ts', 1, 'TS2307'), c('src/index.ts', 4, 'TS2322')])
write('ts/tsc-pretty', 'compilation_error', [c('src/index.ts', 1, 'TS2307'), c('src/index.ts', 4, 'TS2322')])
ES = 'src/app.js'
eslint_all = [c(ES, 1, 'no-unused-vars'), c(ES, 4, 'eqeqeq'), c(ES, 5, 'no-undef')]
write('eslint/stylish', 'compilation_error', eslint_all)
write('eslint/color', 'compilation_error', eslint_all)
print('ok')

# JUnit console launcher, --details=flat (no Failures section)
write('java/junit5-flat', 'test_failure', [
    t('CalcTest.greets', 'Hello, ann', 'Hello ann', JV, 13),
    t('CalcTest.isPositive', 'true', 'false', JV, 23),
    t('CalcTest.addsNumbers', '5', '6', JV, 8),
])

# Cut in the middle by bounded-output.ts (16 KB head + 16 KB tail); the truth lists what the cut text still says.
# pytest: sections of test_row[0..5] and [56..59] survive (line 8); the -rfE summary at the end names all 60 with
# assertion rewriting's values ("assert (i * 2) == ((i + i) + 1)": actual left, expected right).
LONG = 'tests/test_long.py'
write('pytest/long-cut', 'test_failure', [
    t(f'tests/test_long.py::test_row[{i}]', f'(({i} + {i}) + 1)', f'({i} * 2)', LONG, 8 if i <= 5 or i >= 56 else None)
    for i in range(60)
], 'cut by bounded-output.ts: sections 6..55 are gone, the short summary survives')
# go: subtests n=0..5 and n=74..79 survive whole; n=6's header survives without its error line; n=73's error line
# survives without its header (so no test can be named for it). double(i) = 2i+1, want 2i, at long_test.go:18.
go_long = []
for i in list(range(0, 7)) + list(range(74, 80)):
    whole = i != 6
    go_long.append(t(f'example.com/long > TestDouble/n={i}', str(2 * i) if whole else None, str(2 * i + 1) if whole else None,
                     'long_test.go', 18 if whole else None))
write('go/long-cut', 'test_failure', go_long, 'cut by bounded-output.ts: subtests 7..73 are gone')
# cargo: the closing "failures:" list names all 50; stdout blocks of 0, 10..15 (before the cut) and 49, 5..9 (after it)
# are whole; doubles_48's block lost its header. assert_eq!(double(i), 2i): left 2i+1, right 2i, at line 14 + 8i.
cargo_long = []
for i in range(50):
    whole = i in (0, 10, 11, 12, 13, 14, 15, 49, 5, 6, 7, 8, 9)
    cargo_long.append(t(f'tests::doubles_{i}', str(2 * i) if whole else None, str(2 * i + 1) if whole else None,
                        RT, 14 + 8 * i if whole else None))
write('cargo/long-cut', 'test_failure', cargo_long, 'cut by bounded-output.ts: the failures list at the end names every test')

# testify (assert/require): the values sit under "Error:" on "expected:" / "actual  :" lines.
testify = [
    t('calc > TestAdd', '5', '6', 'calc_test.go', 11),
    t('calc > TestWords', None, None, 'calc_test.go', 15),
    t('calc > TestWordsEqual', '[]string{"a", "b"}', '[]string{"a", "b", "c"}', 'calc_test.go', 19),
]
write('go/testify', 'test_failure', testify, 'TestWords: require.Len prints a sentence, not a pair of values')
write('go/testify-json', 'test_failure', testify)
print('ok2')
